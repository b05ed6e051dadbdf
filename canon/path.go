package canon

import "strings"

// removeDotSegments removes the "." and ".." segments of the escaped path p
// with the result of RFC 3986 §5.2.4, working segment by segment rather than
// on the RFC's string buffer so that long paths take linear time. A path that
// does not start with "/" (net/url gives none with a host) is returned as is.
func removeDotSegments(p string) string {
	if !strings.HasPrefix(p, "/") || !strings.Contains(p, ".") {
		return p
	}
	segs := strings.Split(p[1:], "/")
	out := make([]string, 0, len(segs))
	for i, seg := range segs {
		last := i == len(segs)-1
		switch seg {
		case ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, seg)
			continue
		}
		if last {
			// "/a/." and "/a/b/.." both end in a directory: "/a/".
			out = append(out, "")
		}
	}
	return "/" + strings.Join(out, "/")
}

// dropPathSessionIDs removes every ";jsessionid=..." parameter from the
// segments of the escaped path p. A parameter runs from its ";" to the next
// ";" or "/"; its name is compared percent-decoded and case-insensitively.
func dropPathSessionIDs(p string) string {
	if strings.IndexByte(p, ';') < 0 {
		return p
	}
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		if strings.IndexByte(seg, ';') < 0 {
			continue
		}
		params := strings.Split(seg, ";")
		kept := params[:1]
		for _, param := range params[1:] {
			name, _, _ := strings.Cut(param, "=")
			if !strings.EqualFold(unescapeLoose(name), "jsessionid") {
				kept = append(kept, param)
			}
		}
		segs[i] = strings.Join(kept, ";")
	}
	return strings.Join(segs, "/")
}
