package apiserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// pki is the files makePKI writes.
type pki struct {
	caCert, serverCert, serverKey, clientCert, clientKey, saKey, saPub string
	caPEM                                                              []byte
}

// makePKI writes a throw-away CA, a serving certificate for 127.0.0.1, a
// client certificate for user "jsonprune-oracle" in group system:masters
// (RBAC allows it everything) and a service-account signing key pair, all
// ECDSA P-256, valid for a day.
func makePKI(dir string) (*pki, error) {
	p := &pki{
		caCert: filepath.Join(dir, "ca.crt"), serverCert: filepath.Join(dir, "server.crt"), serverKey: filepath.Join(dir, "server.key"),
		clientCert: filepath.Join(dir, "client.crt"), clientKey: filepath.Join(dir, "client.key"),
		saKey: filepath.Join(dir, "sa.key"), saPub: filepath.Join(dir, "sa.pub"),
	}
	now := time.Now().Add(-time.Hour)
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "jsonprune-oracle-ca"},
		NotBefore: now, NotAfter: now.Add(25 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	ca, _ = x509.ParseCertificate(caDER)
	p.caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	if err := os.WriteFile(p.caCert, p.caPEM, 0o600); err != nil {
		return nil, err
	}
	leaf := func(serial int64, tmpl *x509.Certificate, certFile, keyFile string) error {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return err
		}
		tmpl.SerialNumber = big.NewInt(serial)
		tmpl.NotBefore, tmpl.NotAfter = now, now.Add(25*time.Hour)
		tmpl.KeyUsage = x509.KeyUsageDigitalSignature
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &k.PublicKey, caKey)
		if err != nil {
			return err
		}
		kd, err := x509.MarshalECPrivateKey(k)
		if err != nil {
			return err
		}
		if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
			return err
		}
		return os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kd}), 0o600)
	}
	if err := leaf(2, &x509.Certificate{
		Subject: pkix.Name{CommonName: "127.0.0.1"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}, p.serverCert, p.serverKey); err != nil {
		return nil, err
	}
	if err := leaf(3, &x509.Certificate{
		Subject:     pkix.Name{CommonName: "jsonprune-oracle", Organization: []string{"system:masters"}},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, p.clientCert, p.clientKey); err != nil {
		return nil, err
	}
	sa, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	kd, err := x509.MarshalECPrivateKey(sa)
	if err != nil {
		return nil, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&sa.PublicKey)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(p.saKey, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kd}), 0o600); err != nil {
		return nil, err
	}
	if err := os.WriteFile(p.saPub, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o600); err != nil {
		return nil, err
	}
	return p, nil
}
