package policy

import "reflect"

// Tighten returns a new policy with an untrusted layer (a per-request
// override over HTTP, a sub-agent's policy) applied over p's configuration.
// The layer may only tighten: a loosening key is an error that names it.
// p is not changed.
func (p *Policy) Tighten(layer Layer, opts Options) (*Policy, error) {
	l := &Loaded{Config: cloneConfig(p.doc)}
	layer.Untrusted = true
	if err := l.apply(layer); err != nil {
		return nil, err
	}
	if opts.Home == "" {
		opts.Home = p.home
	}
	if opts.Protected == nil {
		opts.Protected = p.protected[len(protectedGlobs(nil)):]
	}
	if opts.Denied == nil {
		opts.Denied = p.secrets
	}
	return Compile(l.Config, opts)
}

// cloneConfig deep-copies a configuration so merging into the copy never
// touches the original's slices or maps.
func cloneConfig(c *Config) *Config {
	out := &Config{}
	deepCopy(reflect.ValueOf(out).Elem(), reflect.ValueOf(c).Elem())
	return out
}

func deepCopy(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Struct:
		if src.Type().String() == "time.Time" {
			dst.Set(src)
			return
		}
		for i := 0; i < src.NumField(); i++ {
			if dst.Field(i).CanSet() {
				deepCopy(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.MakeSlice(src.Type(), src.Len(), src.Len()))
		for i := 0; i < src.Len(); i++ {
			deepCopy(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		copyMap(dst, src)
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.New(src.Type().Elem()))
		deepCopy(dst.Elem(), src.Elem())
	default:
		dst.Set(src)
	}
}

func copyMap(dst, src reflect.Value) {
	if src.IsNil() {
		return
	}
	dst.Set(reflect.MakeMapWithSize(src.Type(), src.Len()))
	iter := src.MapRange()
	for iter.Next() {
		v := reflect.New(src.Type().Elem()).Elem()
		deepCopy(v, iter.Value())
		dst.SetMapIndex(iter.Key(), v)
	}
}
