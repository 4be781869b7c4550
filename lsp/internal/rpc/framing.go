package rpc

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// maxMessage bounds one JSON-RPC message. LSP messages carry whole
// documents; a patch of a few megabytes is large. A longer message is
// skipped without being read into memory, and answered with an error.
const maxMessage = 64 << 20

// framer is jsonrpc2's stream (the "Content-Length" framing of
// messages) made tolerant of a bad client: the
// library's connection ends at the first frame its stream cannot read or
// decode (a bad header, a body that is not a JSON-RPC message), and
// jsonrpc2 v1 still does. Each body is read into its own buffer, which the
// message decoded from it borrows (jsonrpc2.Async copies a request again
// when it leaves the read loop). This one answers a
// body that is not JSON with a ParseError, a JSON value that is no
// JSON-RPC message with an InvalidRequest (id null, as JSON-RPC 2.0 says),
// skips header lines it does not understand and messages over maxMessage,
// and goes on reading. Only the end of the input ends it.
//
// It also tells when a response has been written (replied): jsonrpc2
// writes a handler's reply after the handler returns, and the exit
// notification must not end the process before the shutdown reply is out.
type framer struct {
	in      *bufio.Reader
	rwc     io.ReadWriteCloser
	log     *zap.Logger
	write   sync.Mutex
	replied func()
}

func newFramer(rwc io.ReadWriteCloser, log *zap.Logger, replied func()) *framer {
	return &framer{in: bufio.NewReader(rwc), rwc: rwc, log: log, replied: replied}
}

func (s *framer) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		body, n, err := s.frame()
		total += n
		switch {
		case err == errFrame:
			continue // logged by frame
		case err != nil:
			return nil, total, err
		case body == nil:
			continue // too large, skipped and answered
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			return msg, total, nil
		}
		code := jsonrpc2.ParseError
		if json.Valid(body) {
			code = jsonrpc2.InvalidRequest
		}
		s.log.Info("malformed JSON-RPC message answered with an error", zap.Error(err), zap.ByteString("body", clipBytes(body)))
		s.replyNullID(ctx, code, fmt.Sprintf("fsrb: malformed JSON-RPC message: %v", err))
	}
}

var errFrame = fmt.Errorf("bad frame")

// frame reads one "Content-Length: N\r\n\r\n" header and its body. A body
// over maxMessage is skipped (nil body); a frame without a length is
// errFrame.
func (s *framer) frame() ([]byte, int64, error) {
	var total int64
	length := int64(-1)
	headers := 0
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			return nil, total, fmt.Errorf("failed reading header line: %w", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if headers == 0 {
				continue // blank lines between messages
			}
			break
		}
		headers++
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			s.log.Info("header line ignored", zap.String("line", string(clipBytes([]byte(line)))))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n <= 0 {
				s.log.Info("bad Content-Length", zap.String("value", string(clipBytes([]byte(value)))))
				length = -2
				continue
			}
			length = n
		}
	}
	if length < 0 {
		s.log.Info("message without a valid Content-Length skipped")
		s.replyNullID(context.Background(), jsonrpc2.ParseError, "fsrb: message without a valid Content-Length header")
		return nil, total, errFrame
	}
	if length > maxMessage {
		n, err := io.CopyN(io.Discard, s.in, length)
		total += n
		if err != nil {
			return nil, total, fmt.Errorf("skipping an oversized message: %w", err)
		}
		s.log.Info("oversized message skipped", zap.Int64("bytes", length))
		s.replyNullID(context.Background(), jsonrpc2.InvalidRequest, fmt.Sprintf("fsrb: message of %d bytes skipped; the limit is %d", length, maxMessage))
		return nil, total, nil
	}
	body := make([]byte, length)
	n, err := io.ReadFull(s.in, body)
	total += int64(n)
	if err != nil {
		return nil, total, fmt.Errorf("read full of data: %w", err)
	}
	return body, total, nil
}

// replyNullID answers a message whose id could not be read.
func (s *framer) replyNullID(ctx context.Context, code jsonrpc2.Code, msg string) {
	data, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": code, "message": msg},
	})
	s.write.Lock()
	defer s.write.Unlock()
	if _, err := fmt.Fprintf(s.rwc, "Content-Length: %d\r\n\r\n%s", len(data), data); err != nil {
		s.log.Info("error reply not sent", zap.Error(err))
	}
}

func (s *framer) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	data, err := jsonrpc2.EncodeMessage(msg)
	if err != nil {
		return 0, err
	}
	s.write.Lock()
	n, err := fmt.Fprintf(s.rwc, "Content-Length: %d\r\n\r\n%s", len(data), data)
	s.write.Unlock()
	if v, verr := jsonrpc2.ScanMessageView(data); verr == nil && (v.Kind == jsonrpc2.MessageViewResponseResult || v.Kind == jsonrpc2.MessageViewResponseError) {
		s.replied()
	}
	return int64(n), err
}

func (s *framer) Close() error { return s.rwc.Close() }

func clipBytes(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}
