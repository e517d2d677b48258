package sample

// Outer is documented above.
type Outer struct {
	// A has a doc comment
	// on two lines.
	A    string
	B    int  // B has a line comment.
	C, D bool // C and D share one.
	Inner
	*Ptr
	Nested struct {
		// X is inside an anonymous struct.
		X int
	}
	undocumented int
}

type (
	// Inner is in a group.
	Inner struct{}
	// Ptr is embedded by pointer.
	Ptr struct{}
)

// Alias is not a struct.
type Alias = string
