// Command fsrb-lsp is fsrb's language server over stdio. It only wires:
// flags, logging, the transport; the server is package lsp.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/fsrb/fsrb/internal/buildinfo"
	"github.com/fsrb/fsrb/lsp"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = ""

func main() {
	logFile := flag.String("log-file", "", "write logs to this file (default: stderr); stdout carries the protocol")
	showVersion := flag.Bool("version", false, "print the version and exit")
	// Clients (vscode-languageclient among them) add --stdio for the stdio
	// transport; it is the only one there is, so the flag is accepted and ignored.
	flag.Bool("stdio", false, "use stdin/stdout (the default and only transport)")
	flag.Parse()
	if *showVersion {
		fmt.Println("fsrb-lsp", buildinfo.Version(version))
		return
	}
	oneThread()
	keepHeapFloor() // for the process's life
	logger, closeLog, err := newLogger(*logFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fsrb-lsp:", err)
		os.Exit(2)
	}
	defer closeLog()

	session := lsp.Serve(context.Background(), newStdio(os.Stdin, os.Stdout), lsp.Options{
		Logger:   logger,
		Debounce: lsp.DefaultDebounce,
		Version:  buildinfo.Version(version),
	})
	code := 1 // the client went away without "exit"
	select {
	case code = <-session.Exit():
	case <-session.Done():
		// A client may close stdin right after its last messages: give the
		// handlers still queued (shutdown, exit) a moment to run.
		select {
		case code = <-session.Exit():
		case <-time.After(time.Second):
		}
	}
	logger.Info("exit", zap.Int("code", code))
	closeLog()
	os.Exit(code)
}

// newLogger logs to stderr, or at debug level (every call) to a file.
func newLogger(path string) (*zap.Logger, func(), error) {
	enc := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	if path == "" {
		core := zapcore.NewCore(enc, zapcore.Lock(os.Stderr), zapcore.InfoLevel)
		l := zap.New(core)
		return l, func() { _ = l.Sync() }, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	l := zap.New(zapcore.NewCore(enc, zapcore.Lock(f), zapcore.DebugLevel))
	return l, func() { _ = l.Sync() }, nil
}

// stdio is the transport: the protocol owns stdout.
type stdio struct{ in, out *os.File }

// newStdio makes in and out, pipes or sockets, files the poller waits on
// (pollable): each asked in turn, as they may be one open file.
func newStdio(in, out *os.File) stdio {
	return stdio{in: pollable(in), out: pollable(out)}
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }

// Close leaves stdout open: handlers still queued when stdin ends may
// reply, and the process exit closes it.
func (s stdio) Close() error { return s.in.Close() }

var _ io.ReadWriteCloser = stdio{}
