package core

// smallSet is a set that stays a slice while it holds few keys. A lazy
// block's side (blockSide) holds one to a few names, keys and first
// lines, and every item of every body of the file is looked up in them
// (mayPair): comparing a few strings, most of them parted by their
// length alone, costs less than hashing the item's string. Its zero
// value is empty and ready.
type smallSet[K comparable] struct {
	list []K
	m    map[K]struct{} // once list would pass smallSetMax
}

const smallSetMax = 8

func (s *smallSet[K]) add(k K) {
	if s.has(k) {
		return
	}
	if s.m == nil && len(s.list) < smallSetMax {
		s.list = append(s.list, k)
		return
	}
	if s.m == nil {
		s.m = make(map[K]struct{}, 2*smallSetMax)
		for _, x := range s.list {
			s.m[x] = struct{}{}
		}
		s.list = nil
	}
	s.m[k] = struct{}{}
}

func (s *smallSet[K]) has(k K) bool {
	if s.m != nil {
		_, ok := s.m[k]
		return ok
	}
	for _, x := range s.list {
		if x == k {
			return true
		}
	}
	return false
}
