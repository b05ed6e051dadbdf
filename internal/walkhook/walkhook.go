// Package walkhook lets relink's ingest read a page once for two jobs: it
// reaches the walker of package backlink, which renders a page's words and
// records its links, with a Hook that is shown every token first, so that
// the ingest can rewrite the page's links and learn its title and meta
// refresh in the same reading (provider/internal/ingest). It is not part of
// backlink's API: package backlink sets Parse when it is initialized.
//
// The Hook sees the tokens an html.Tokenizer gives for the page, exactly
// as a tokenizer of its own would, and the walker reads the page as
// backlink.Parse would read it with every href the Hook changed written in
// its place. Where that cannot be done in one reading (see Parse), Parse
// says so and the caller reads the page twice, as before.
package walkhook

import "golang.org/x/net/html"

// Attr is an attribute of a tag, its key lowercased and its value decoded
// as html.Tokenizer.TagAttr returns them.
type Attr struct {
	Key, Val []byte
}

// Token is the current token of a page, shown to a Hook. What its methods
// return is valid until the Hook returns, and must not be changed.
type Token interface {
	// Raw returns the token's bytes as written in the page.
	Raw() []byte
	// Text returns the text of a text, comment or doctype token, as
	// html.Tokenizer.Text does; any number of calls return the same.
	Text() []byte
	// Attrs returns the attributes of a start tag (the first of each
	// key, as the tokenizer keeps them), as html.Tokenizer.TagAttr
	// returns them; any number of calls return the same.
	Attrs() []Attr
}

// Current is the current token of an html.Tokenizer as a Token, its text
// and attributes read from the tokenizer once (which decodes them in
// place: a token's raw bytes are to be read before its text). Next must be
// called after each call of the tokenizer's Next.
type Current struct {
	z         *html.Tokenizer
	text      []byte
	textRead  bool
	attrs     []Attr
	attrsRead bool
}

// Next makes c the token z has just read, forgetting the previous one; a
// nil z drops every reference c holds.
func (c *Current) Next(z *html.Tokenizer) {
	c.z = z
	c.text, c.textRead = nil, false
	clear(c.attrs)
	c.attrs, c.attrsRead = c.attrs[:0], false
}

// Raw returns the token's bytes as written.
func (c *Current) Raw() []byte { return c.z.Raw() }

// Text returns the token's text, read once.
func (c *Current) Text() []byte {
	if !c.textRead {
		c.text, c.textRead = c.z.Text(), true
	}
	return c.text
}

// Attrs returns the tag's attributes, read once.
func (c *Current) Attrs() []Attr {
	if !c.attrsRead {
		for more := true; more; {
			var k, v []byte
			k, v, more = c.z.TagAttr()
			if k == nil && !more {
				break
			}
			c.attrs = append(c.attrs, Attr{Key: k, Val: v})
		}
		c.attrsRead = true
	}
	return c.attrs
}

// AttrsRead reports whether Attrs has read the tag's attributes.
func (c *Current) AttrsRead() bool { return c.attrsRead }

// Hook is shown each token of a page, in order, before the walker reads it.
type Hook interface {
	// Token is called with each token's type, the final html.ErrorToken
	// included. For the start tag of an a or area element, a true ok says
	// that the walker is to read href as the value of the tag's href
	// attribute, as if the page had been written with it; the tag must
	// have an href attribute.
	Token(tt html.TokenType, t Token) (href string, ok bool)
}

// Parse is backlink.Parse with a Hook: it reads page, whose URI is
// pageURI, with h shown every token, and returns the *backlink.Document
// (typed any, since package backlink imports this one). ok is false when
// the page could not be read in one pass, and then h has not been shown the
// whole page: a page that backlink.Decode would convert (it is not UTF-8,
// or its meta names another charset), one larger than
// backlink.MaxPageSize, or one where backlink's walker would tokenize
// differently from a plain html.Tokenizer (raw text, as a <title> or a
// <style>, inside an <svg>, that holds a "<"). The errors are Parse's. A
// UTF-8 byte order mark at the start of page is not shown to h.
var Parse func(page []byte, pageURI string, h Hook) (doc any, ok bool, err error)
