package core

import "sync/atomic"

// lastAnswer keeps a function's last answer and the key it was for, in
// one atomic slot: a streamed answer's open code block is read again on
// every chunk with the same names and info string, and a lookup each
// time, cold by the next chunk, cost that read more than its new lines.
// The caller decides what key a kept answer serves, and stores keys that
// own their bytes (a slice of a whole answer would keep it alive).
type lastAnswer[K comparable, V any] struct {
	p atomic.Pointer[keyedAnswer[K, V]]
}

type keyedAnswer[K comparable, V any] struct {
	key K
	val V
}

// load returns the kept key and answer; ok is false when none is kept.
func (l *lastAnswer[K, V]) load() (key K, val V, ok bool) {
	if e := l.p.Load(); e != nil {
		return e.key, e.val, true
	}
	return key, val, false
}

func (l *lastAnswer[K, V]) store(key K, val V) {
	l.p.Store(&keyedAnswer[K, V]{key, val})
}
