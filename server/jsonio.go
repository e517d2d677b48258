package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// jsonType is the media type of every request body and JSON reply.
const jsonType = "application/json"

// errorBody is every error response: {"error": "..."}.
type errorBody struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"error":"could not encode the response"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{Error: msg})
}

// requestError is a client mistake answered with its status and message.
type requestError struct {
	status int
	msg    string
}

// Error returns the message for the client.
func (e *requestError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &requestError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// writeRequestError answers err: a requestError with its own status, any
// other error as 400.
func writeRequestError(w http.ResponseWriter, err error) {
	if re, ok := errors.AsType[*requestError](err); ok {
		writeError(w, re.status, re.msg)
		return
	}
	writeError(w, http.StatusBadRequest, err.Error())
}

// readBody checks the content type and reads at most max bytes.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	if err := requireJSONType(r); err != nil {
		return nil, err
	}
	return readLimited(w, r, max)
}

// presizedBody bounds the buffer readLimited makes for a body's declared
// length before its bytes arrive: far more than a call's usual few hundred
// bytes, far less than the 1 MiB a body may have.
const presizedBody = 16 << 10

// readLimited reads at most max bytes of the body, whatever its type.
//
// A body that declares a small length within max is read into one buffer
// of that length (agents send Content-Length): io.ReadAll through a
// http.MaxBytesReader cost three allocations and a copy for every call.
// Anything else (no length, a length past presizedBody, or more than max,
// which is refused as too large after max+1 bytes, closing the connection)
// goes through MaxBytesReader, whose buffer grows only as bytes arrive, so
// a client that declares a large body and sends none costs little.
// net/http's body reader gives exactly the declared length, or
// io.ErrUnexpectedEOF when the connection ends before it.
func readLimited(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	return readLimitedInto(w, r, max, nil)
}

// readLimitedInto is readLimited reading a body of a small declared
// length into buf's space when it has room (else into a new buffer).
func readLimitedInto(w http.ResponseWriter, r *http.Request, max int64, buf []byte) ([]byte, error) {
	if n := r.ContentLength; n >= 0 && n <= max && n <= presizedBody {
		body := buf[:0]
		if int64(cap(body)) >= n {
			body = body[:n]
		} else {
			body = make([]byte, n)
		}
		if _, err := io.ReadFull(r.Body, body); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // as io.ReadAll reports a body cut short
			}
			return nil, badRequest("could not read the request body: %v", err)
		}
		return body, nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return nil, &requestError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", mbe.Limit)}
	}
	if err != nil {
		return nil, badRequest("could not read the request body: %v", err)
	}
	return body, nil
}

func requireJSONType(r *http.Request) error {
	ct := firstValue(r.Header, "Content-Type")
	if ct == jsonType || len(ct) == len(jsonType) && strings.EqualFold(ct, jsonType) {
		return nil // what agents send; mime.ParseMediaType builds a map of parameters each time
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return &requestError{http.StatusUnsupportedMediaType, fmt.Sprintf("content type %q refused: send Content-Type: application/json", ct)}
	}
	return nil
}

// decodeStrict decodes one JSON object into v: unknown fields, trailing
// data and wrong types are errors that name the field and list the valid
// ones.
func decodeStrict(body []byte, v any, valid []string) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return explainDecode(err, valid)
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest("unexpected data after the JSON object; send exactly one object")
	}
	return nil
}

func explainDecode(err error, valid []string) error {
	list := strings.Join(valid, ", ")
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return badRequest("unknown field %s (valid: %s)", name, list)
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		if te.Field == "" {
			return badRequest("the body must be a JSON object with the fields %s, not %s", list, te.Value)
		}
		return badRequest("field %q must be %s, not %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return badRequest("malformed JSON at byte %d: %v", se.Offset, se)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return badRequest("empty or truncated JSON body; send an object with the fields %s", list)
	}
	return badRequest("malformed JSON: %v", err)
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "map", "struct":
		return "an object"
	case "slice":
		return "an array"
	}
	return "a " + goKind
}

// firstValue is h.Get(key) for a key already in canonical form, without
// canonicalising it again: Get looks up h[textproto.CanonicalMIMEHeaderKey(key)]
// and returns its first value.
func firstValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
