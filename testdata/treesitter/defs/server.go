package server

import "context"

// Server serves.
type Server struct {
	addr string
	//      ^ chain: struct Server
	//      ^ describe: type Server
}

// Start starts.
func (s *Server) Start(ctx context.Context) error {
	return s.listen(ctx)
	//       ^ chain: method Server.Start
	//       ^ describe: func (s *Server) Start
	//       ^ sig: func (s *Server) Start(ctx context.Context) error {
}

func (s Server) listen(ctx context.Context) error { return nil }

//                                                 ^ describe: func (s Server) listen

// Store stores.
type Store interface {
	Get(key string) (string, error)
	//  ^ chain: interface Store
}

type (
	// ID names.
	ID string
	//  ^ chain: type ID
	//  ^ sig: ID string
)

// Box boxes.
type Box[T any] struct{ v T }

func (b *Box[T]) Get() T {
	return b.v
	//     ^ chain: method Box.Get
}

func (b Box[T]) Put(v T) Box[T] { return Box[T]{v} }

//                               ^ chain: method Box.Put

func main() {
	f := func() {
		_ = 1
		//  ^ chain: function main
	}
	f()
}

var x = 1

//  ^ chain: -
