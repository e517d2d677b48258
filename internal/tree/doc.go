// Package tree reads configuration documents in TOML, YAML or JSON into one
// small positioned document tree, and decodes that tree into any Go struct
// by reflection, reporting every problem at once with its file, line,
// column, field path and the valid choices.
//
// The flow is Parse (bytes → *Node) then Decode or DecodeMeta (*Node →
// struct). Field names come from `toml:"name"` tags and are the same in all
// three formats. Unknown keys, wrong types, out-of-range numbers and invalid
// enum values are all collected into one Errors value, sorted by position,
// so a user fixes a file in one pass.
//
// The same struct types drive the generated reference: JSONSchema writes a
// draft 2020-12 JSON Schema and Markdown writes a reference page, with the
// descriptions package internal/fielddoc reads from the Go doc comments of
// the struct fields, so the Go source is the one place a field is
// documented.
package tree
