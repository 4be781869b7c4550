package mcp

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestUnescapeHTML(t *testing.T) {
	for _, s := range []string{
		"<<<<<<< SEARCH\nx && y\n=======\n>>>>>>> REPLACE",
		`a literal \u003c, escaped`,
		`\\u003c`,
		"ends with a backslash \\",
		"\u2028 and \t and \"quotes\" <&>",
		"",
	} {
		escaped, _ := json.Marshal(map[string]string{"text": s})
		line := append(escaped, '\n')
		var out bytes.Buffer
		u := &unescaper{w: &out}
		// Byte by byte: a message cut anywhere comes out whole.
		for i := range line {
			if _, err := u.Write(line[i : i+1]); err != nil {
				t.Fatal(err)
			}
		}
		got := out.Bytes()
		if bytes.Contains(got, []byte(`\u003c`)) && !bytes.Contains([]byte(s), []byte(`\u003c`)) {
			t.Errorf("%q: escapes left in %s", s, got)
		}
		var back map[string]string
		if err := json.Unmarshal(got, &back); err != nil || back["text"] != s {
			t.Errorf("%q: %s decodes to %q (%v)", s, got, back["text"], err)
		}
	}
}
