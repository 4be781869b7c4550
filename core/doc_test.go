package core

import "testing"

func TestDocRoundTrip(t *testing.T) {
	for _, in := range []string{
		"", "a\n", "a", "0\r", "a\r\nb\r", "a\r\nb\r\n", "a\r\nb", "\uFEFFa\nb", "a\nb\r\nc\n", "\r\n", "x\r\ny\n\n",
	} {
		if got := string(loadDoc([]byte(in)).bytes()); got != in {
			t.Errorf("round trip %q gave %q", in, got)
		}
	}
}

func TestDocSpliceKeepsEndings(t *testing.T) {
	d := loadDoc([]byte("a\r\nb\nc\r\nd"))
	// CRLF wins 2:1 (a final line without a newline has no ending to count).
	d.splice(2, 4, "B1\nB2\n") // replace "b\n"
	if got := string(d.bytes()); got != "a\r\nB1\r\nB2\r\nc\r\nd" {
		t.Errorf("got %q", got)
	}
	d = loadDoc([]byte("a\nb"))
	d.splice(2, 4, "")
	if got := string(d.bytes()); got != "a" {
		t.Errorf("delete last line without newline: got %q", got)
	}
}
