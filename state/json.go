package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
)

// UpdateJSON runs a locked read-modify-write of the JSON file at path: it
// takes [LockFile], decodes the file into v (a missing or empty file leaves
// v untouched), calls update, and when update reports a change writes v
// back with [WriteFile]. A file that does not decode strictly (unknown
// fields, trailing data) is set aside and a *[CorruptError] is returned
// without calling update, so nothing stored in it applies.
func UpdateJSON[T any](ctx context.Context, path string, v *T, update func(*T) (changed bool, err error)) error {
	return updateJSON(ctx, path, v, update, WriteFile)
}

// UpdateJSONUnsynced is [UpdateJSON] writing with [WriteFileUnsynced]: as
// exact between processes, but the last updates may be lost if the machine
// crashes.
func UpdateJSONUnsynced[T any](ctx context.Context, path string, v *T, update func(*T) (changed bool, err error)) error {
	return updateJSON(ctx, path, v, update, WriteFileUnsynced)
}

func updateJSON[T any](ctx context.Context, path string, v *T, update func(*T) (bool, error),
	write func(string, []byte, os.FileMode) error) error {
	lock, err := LockFile(ctx, path)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if err := readJSONLocked(path, v); err != nil {
		return err
	}
	changed, err := update(v)
	if err != nil || !changed {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return write(path, append(data, '\n'), 0o600)
}

// ReadJSON decodes the JSON file at path into v under its lock, with the
// same rules as [UpdateJSON]; a missing file leaves v untouched.
func ReadJSON[T any](ctx context.Context, path string, v *T) error {
	return UpdateJSON(ctx, path, v, func(*T) (bool, error) { return false, nil })
}

func readJSONLocked(path string, v any) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := decodeStrict(data, v); err != nil {
		return SetAside(path, err)
	}
	return nil
}

func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}
