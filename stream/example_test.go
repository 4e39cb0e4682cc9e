package stream_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/stream"
)

func Example() {
	for _, input := range []string{
		"# widgets\napiVersion: v1\nkind: A\n---\napiVersion: v1\nkind: B\n...\n",
		`{"kind":"A"}` + "\n" + `{"kind":"B","spec":{"x":1}}` + "\n",
	} {
		r, err := stream.NewReader(strings.NewReader(input), decoder.MaxDocumentSize(1<<20))
		if err != nil {
			panic(err)
		}
		for {
			d, err := r.ReadDocument()
			if err == io.EOF {
				break
			}
			if err != nil {
				fmt.Println(err) // a document too large, or a read error
				continue
			}
			fmt.Printf("%s %s %d at %d:%d: %q\n", d.Format, d.Part, d.Index, d.Line, d.Column, d.Text)
		}
	}
	// Output:
	// YAML Whole 0 at 1:1: "# widgets\napiVersion: v1\nkind: A\n"
	// YAML Whole 1 at 4:1: "---\napiVersion: v1\nkind: B\n...\n"
	// JSON Whole 0 at 1:1: "{\"kind\":\"A\"}"
	// JSON Whole 1 at 2:1: "{\"kind\":\"B\",\"spec\":{\"x\":1}}"
}

func ExampleReader_lists() {
	list := `{"kind":"List","items":[{"kind":"A"},{"kind":"B"}]}`
	r, _ := stream.NewReader(strings.NewReader(list))
	for {
		d, err := r.ReadDocument()
		if err != nil {
			break // io.EOF
		}
		fmt.Printf("%-8s item %2d: %s\n", d.Part, d.Item, d.Text)
	}
	// Output:
	// ListHead item -1: {"kind":"List","items":[
	// ListItem item  0: {"kind":"A"}
	// ListItem item  1: {"kind":"B"}
	// ListTail item -1: ]}
}
