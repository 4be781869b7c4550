package main

import "testing"

// A dry run catches no signal (apply leaves its interrupts nil): the nil
// value must read as "never stopped, nothing caught".
func TestNoInterruptsCaught(t *testing.T) {
	var in *interrupts
	if ch := in.stopped(); ch != nil {
		t.Errorf("stopped() = %v, want a nil channel, which never closes", ch)
	}
	if sig := in.release(); sig != nil {
		t.Errorf("release() = %v, want nil", sig)
	}
}
