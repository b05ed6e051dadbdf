package backlink

import (
	"fmt"
	"strings"
)

// This file generates the realistic pages the benchmarks and the
// prefilter comparison run on: a Sphinx-like documentation page (sidebar,
// related bar, toctree, code blocks dense with highlighting spans, many
// links, entities) and a blog article page (menu, article, comments,
// widgets). The text is drawn from a fixed vocabulary by a fixed
// pseudo-random sequence, so every run sees the same bytes.

// vocabulary is the word list generated prose is drawn from.
var vocabulary = strings.Fields(`the a of to and in is that for it with as on be
by this are from or an at which can not have will if one all when each more
function method value return type object module package parameter argument
default string integer list mapping iterator generator exception error
configuration option setting file directory path request response server client
cache index query result record field column table row schema transaction lock
thread process signal buffer stream socket timeout retry backoff token session
archive crawler link anchor page document signature term frequency weight rank
missing rediscover neighborhood backlink search engine corpus sample radius
deprecated version changed added release note example usage see also warning`)

// prng is a small linear congruential generator: deterministic text.
type prng uint64

func (p *prng) next(n int) int {
	*p = *p*6364136223846793005 + 1442695040888963407
	return int(uint64(*p>>33) % uint64(n))
}

// sentence returns n words of prose.
func (p *prng) sentence(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vocabulary[p.next(len(vocabulary))])
	}
	return b.String()
}

// sphinxTarget is a page the generated Sphinx page links to several times.
const (
	sphinxURI    = "https://docs.example.org/en/latest/guide/caching.html"
	sphinxTarget = "https://docs.example.org/en/latest/api/storage.html"
	blogURI      = "https://blog.example.net/2011/05/rediscovering-missing-pages/"
	blogTarget   = "http://www.cs.example.edu/~alice/papers/lexsig.html"
)

// sphinxPage generates a Sphinx-like documentation page of about size
// bytes.
func sphinxPage(size int) []byte {
	p := prng(1)
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" /><meta name="generator" content="Docutils 0.17.1: http://docutils.sourceforge.net/" />
    <title>Caching &#8212; Storage Toolkit 3.2 documentation</title>
    <link rel="stylesheet" type="text/css" href="../_static/pygments.css" />
    <link rel="stylesheet" type="text/css" href="../_static/alabaster.css" />
    <script data-url_root="../" id="documentation_options" src="../_static/documentation_options.js"></script>
    <script src="../_static/jquery.js"></script>
    <script src="../_static/underscore.js"></script>
    <script src="../_static/doctools.js"></script>
    <link rel="index" title="Index" href="../genindex.html" />
    <link rel="search" title="Search" href="../search.html" />
    <link rel="next" title="Storage" href="../api/storage.html" />
    <link rel="prev" title="Installation" href="install.html" />
    <style>
      div.body { max-width: 800px; } /* keep the <a href="storage.html"> in css out */
    </style>
  </head><body>
    <div class="related" role="navigation" aria-label="related navigation">
      <h3>Navigation</h3>
      <ul>
        <li class="right" style="margin-right: 10px">
          <a href="../genindex.html" title="General Index" accesskey="I">index</a></li>
        <li class="right" >
          <a href="../py-modindex.html" title="Python Module Index" >modules</a> |</li>
        <li class="right" >
          <a href="../api/storage.html" title="Storage" accesskey="N">next</a> |</li>
        <li class="right" >
          <a href="install.html" title="Installation" accesskey="P">previous</a> |</li>
        <li class="nav-item nav-item-0"><a href="../index.html">Storage Toolkit 3.2 documentation</a> &#187;</li>
        <li class="nav-item nav-item-this"><a href="">Caching</a></li>
      </ul>
    </div>
    <div class="document">
      <div class="documentwrapper">
        <div class="bodywrapper">
          <div class="body" role="main">
  <section id="caching">
<h1>Caching<a class="headerlink" href="#caching" title="Permalink to this headline">&#182;</a></h1>
`)
	sec := 0
	for b.Len() < size-12000 {
		sec++
		fmt.Fprintf(&b, "<section id=\"section-%d\">\n<h2>%s<a class=\"headerlink\" href=\"#section-%d\" title=\"Permalink to this headline\">&#182;</a></h2>\n", sec, p.sentence(3), sec)
		for range 3 {
			b.WriteString("<p>")
			for k := range 6 {
				b.WriteString(p.sentence(6 + p.next(10)))
				switch p.next(7) {
				case 0:
					fmt.Fprintf(&b, ` <code class="docutils literal notranslate"><span class="pre">%s_%s()</span></code> `, vocabulary[p.next(len(vocabulary))], vocabulary[p.next(len(vocabulary))])
				case 1:
					fmt.Fprintf(&b, ` <a class="reference internal" href="../api/storage.html#storage.%s" title="storage.%s"><code class="xref py py-func docutils literal notranslate"><span class="pre">storage.%s()</span></code></a> `, vocabulary[p.next(len(vocabulary))], vocabulary[p.next(len(vocabulary))], vocabulary[p.next(len(vocabulary))])
				case 2:
					fmt.Fprintf(&b, ` <a class="reference internal" href="../api/storage.html"><span class="doc">the storage API</span></a> `)
				case 3:
					fmt.Fprintf(&b, ` <a class="reference external" href="https://www.example.com/%s/%d">%s</a> `, vocabulary[p.next(len(vocabulary))], p.next(1000), p.sentence(2))
				case 4:
					b.WriteString(" &#8220;quoted&#8221; &amp; it&#8217;s &lt;fine&gt; ")
				default:
					b.WriteString(". ")
				}
				if k == 5 {
					b.WriteString(".")
				}
			}
			b.WriteString("</p>\n")
		}
		// A code block, dense with highlighting spans as Pygments writes it.
		b.WriteString(`<div class="highlight-python notranslate"><div class="highlight"><pre><span></span>`)
		for line := range 8 {
			fmt.Fprintf(&b, `<span class="kn">from</span> <span class="nn">storage</span> <span class="kn">import</span> <span class="n">%s</span>
<span class="n">c</span> <span class="o">=</span> <span class="n">%s</span><span class="p">(</span><span class="n">size</span><span class="o">=</span><span class="mi">%d</span><span class="p">,</span> <span class="n">name</span><span class="o">=</span><span class="s2">&quot;%s&quot;</span><span class="p">)</span>
`, vocabulary[p.next(len(vocabulary))], vocabulary[p.next(len(vocabulary))], line*128, vocabulary[p.next(len(vocabulary))])
		}
		b.WriteString("</pre></div>\n</div>\n")
		// An API entry.
		fmt.Fprintf(&b, `<dl class="py function">
<dt class="sig sig-object py" id="storage.%[1]s">
<span class="sig-prename descclassname"><span class="pre">storage.</span></span><span class="sig-name descname"><span class="pre">%[1]s</span></span><span class="sig-paren">(</span><em class="sig-param"><span class="n"><span class="pre">key</span></span></em>, <em class="sig-param"><span class="n"><span class="pre">default</span></span><span class="o"><span class="pre">=</span></span><span class="default_value"><span class="pre">None</span></span></em><span class="sig-paren">)</span><a class="headerlink" href="#storage.%[1]s" title="Permalink to this definition">&#182;</a></dt>
<dd><p>%[2]s.</p>
<dl class="field-list simple">
<dt class="field-odd">Parameters</dt>
<dd class="field-odd"><ul class="simple">
<li><p><strong>key</strong> (<em>str</em>) &#8211; %[3]s.</p></li>
<li><p><strong>default</strong> &#8211; %[4]s, see <a class="reference internal" href="../api/storage.html#storage.get" title="storage.get"><code class="xref py py-func docutils literal notranslate"><span class="pre">get()</span></code></a>.</p></li>
</ul>
</dd>
</dl>
</dd></dl>
`, vocabulary[p.next(len(vocabulary))], p.sentence(14), p.sentence(8), p.sentence(8))
		if sec%4 == 0 {
			b.WriteString("<table class=\"docutils align-default\">\n<thead>\n<tr class=\"row-odd\"><th class=\"head\"><p>Option</p></th>\n<th class=\"head\"><p>Meaning</p></th>\n</tr>\n</thead>\n<tbody>\n")
			for r := range 5 {
				fmt.Fprintf(&b, "<tr class=\"row-even\"><td><p><code class=\"docutils literal notranslate\"><span class=\"pre\">%s</span></code></p></td>\n<td><p>%s</p></td>\n</tr>\n", vocabulary[(sec+r)%len(vocabulary)], p.sentence(9))
			}
			b.WriteString("</tbody>\n</table>\n")
		}
		b.WriteString("</section>\n")
	}
	b.WriteString(`<div class="toctree-wrapper compound">
<ul>
<li class="toctree-l1"><a class="reference internal" href="../api/storage.html">Storage</a></li>
<li class="toctree-l1"><a class="reference internal" href="../api/index.html">Index</a></li>
</ul>
</div>
</section>
          </div>
        </div>
      </div>
      <div class="sphinxsidebar" role="navigation" aria-label="main navigation">
        <div class="sphinxsidebarwrapper">
<h1 class="logo"><a href="../index.html">Storage Toolkit</a></h1>
<h3>Navigation</h3>
<ul class="current">
<li class="toctree-l1"><a class="reference internal" href="install.html">Installation</a></li>
<li class="toctree-l1 current"><a class="current reference internal" href="#">Caching</a><ul>
`)
	for i := 1; i <= sec; i++ {
		fmt.Fprintf(&b, "<li class=\"toctree-l2\"><a class=\"reference internal\" href=\"#section-%d\">%s</a></li>\n", i, p.sentence(3))
	}
	b.WriteString(`</ul></li>
<li class="toctree-l1"><a class="reference internal" href="../api/storage.html">Storage</a></li>
</ul>
<div class="relations">
<h3>Related Topics</h3>
<ul>
  <li><a href="../index.html">Documentation overview</a><ul>
      <li>Previous: <a href="install.html" title="previous chapter">Installation</a></li>
      <li>Next: <a href="../api/storage.html" title="next chapter">Storage</a></li>
  </ul></li>
</ul>
</div>
<div id="searchbox" style="display: none" role="search">
  <h3 id="searchlabel">Quick search</h3>
    <div class="searchformwrapper">
    <form class="search" action="../search.html" method="get">
      <input type="text" name="q" aria-labelledby="searchlabel" autocomplete="off" autocorrect="off" autocapitalize="off" spellcheck="false"/>
      <input type="submit" value="Go" />
    </form>
    </div>
</div>
<script>$('#searchbox').show(0);</script>
        </div>
      </div>
      <div class="clearer"></div>
    </div>
    <div class="footer">
      &copy;2011, The Storage Authors.
      |
      Powered by <a href="http://sphinx-doc.org/">Sphinx 4.2.0</a>
      &amp; <a href="https://github.com/bitprophet/alabaster">Alabaster 0.7.12</a>
      |
      <a href="../_sources/guide/caching.rst.txt"
          rel="nofollow">Page source</a>
    </div>
  </body>
</html>
`)
	return []byte(b.String())
}

// blogPage generates a blog article page of about size bytes.
func blogPage(size int) []byte {
	p := prng(7)
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rediscovering missing pages &#8211; Notes from the stacks</title>
<link rel='stylesheet' id='theme-css' href='https://blog.example.net/wp-content/themes/plain/style.css?ver=5.2' type='text/css' media='all' />
<script type='text/javascript' src='https://blog.example.net/wp-includes/js/jquery/jquery.js?ver=1.12.4'></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} var s = '<a href="http://www.cs.example.edu/~alice/papers/lexsig.html">x</a>';</script>
</head>
<body class="post-template-default single single-post postid-1234 has-sidebar">
<div id="page" class="site">
<a class="skip-link screen-reader-text" href="#content">Skip to content</a>
<header id="masthead" class="site-header" role="banner">
<p class="site-title"><a href="https://blog.example.net/" rel="home">Notes from the stacks</a></p>
<nav id="site-navigation" class="main-navigation">
<ul id="primary-menu" class="menu">
<li class="menu-item"><a href="https://blog.example.net/about/">About</a></li>
<li class="menu-item"><a href="https://blog.example.net/archive/">Archive</a></li>
<li class="menu-item"><a href="https://blog.example.net/talks/">Talks</a></li>
</ul>
</nav>
</header>
<div id="content" class="site-content">
<main id="main" class="site-main">
<article id="post-1234" class="post-1234 post type-post status-publish format-standard hentry category-research tag-menu">
<header class="entry-header">
<h1 class="entry-title">Rediscovering missing pages</h1>
<div class="entry-meta"><span class="posted-on">Posted on <a href="https://blog.example.net/2011/05/rediscovering-missing-pages/" rel="bookmark"><time class="entry-date published" datetime="2011-05-02T09:14:00+00:00">May 2, 2011</time></a></span></div>
</header>
<div class="entry-content">
`)
	for b.Len() < size-6000 {
		b.WriteString("<p>")
		for k := range 5 {
			b.WriteString(p.sentence(8 + p.next(12)))
			switch p.next(9) {
			case 0:
				fmt.Fprintf(&b, ` <a href="%s">the paper on %s</a> `, blogTarget, p.sentence(2))
			case 1:
				fmt.Fprintf(&b, ` <a href="https://en.example.org/wiki/%s">%s</a> `, vocabulary[p.next(len(vocabulary))], p.sentence(2))
			case 2:
				b.WriteString(" <em>" + p.sentence(3) + "</em> ")
			case 3:
				b.WriteString(" &#8220;" + p.sentence(2) + "&#8221; &mdash; ")
			default:
				b.WriteString(", ")
			}
			if k == 4 {
				b.WriteString(".")
			}
		}
		b.WriteString("</p>\n")
		if p.next(4) == 0 {
			fmt.Fprintf(&b, "<blockquote><p>%s</p></blockquote>\n<figure class=\"wp-block-image\"><img src=\"https://blog.example.net/wp-content/uploads/%d.png\" alt=\"%s\" width=\"640\" height=\"480\"><figcaption>%s</figcaption></figure>\n", p.sentence(20), p.next(100000), p.sentence(4), p.sentence(6))
		}
	}
	b.WriteString(`</div>
<footer class="entry-footer"><span class="cat-links">Posted in <a href="https://blog.example.net/category/research/" rel="category tag">Research</a></span></footer>
</article>
<nav class="navigation post-navigation" role="navigation" aria-label="Posts">
<div class="nav-links"><div class="nav-previous"><a href="https://blog.example.net/2011/04/soft-404s/" rel="prev">Soft 404s, and how to spot them</a></div><div class="nav-next"><a href="https://blog.example.net/2011/06/tfidf/" rel="next">TF-IDF by hand</a></div></div>
</nav>
<div id="comments" class="comments-area">
<h2 class="comments-title">Two thoughts on &ldquo;Rediscovering missing pages&rdquo;</h2>
<ol class="comment-list">
<li id="comment-1" class="comment even thread-even depth-1"><article class="comment-body"><footer class="comment-meta"><b class="fn"><a href="http://bob.example.com/" rel="external nofollow ugc" class="url">Bob</a></b> says:</footer><div class="comment-content"><p>`)
	b.WriteString(p.sentence(30))
	fmt.Fprintf(&b, ` See <a href="%s" rel="nofollow ugc">Alice&#8217;s page</a>.</p></div></article></li>
<li id="comment-2" class="comment odd alt thread-odd depth-1"><article class="comment-body"><footer class="comment-meta"><b class="fn">Carol</b> says:</footer><div class="comment-content"><p>%s</p></div></article></li>
</ol>
</div>
</main>
<aside id="secondary" class="widget-area" role="complementary">
<section id="recent-posts-2" class="widget widget_recent_entries"><h2 class="widget-title">Recent Posts</h2><ul>
`, blogTarget, p.sentence(25))
	for i := range 10 {
		fmt.Fprintf(&b, "<li><a href=\"https://blog.example.net/2011/%02d/post-%d/\">%s</a></li>\n", 1+i%12, i, p.sentence(4))
	}
	b.WriteString(`</ul></section>
<section id="archives-2" class="widget widget_archive"><h2 class="widget-title">Archives</h2><ul>
`)
	for i := range 24 {
		fmt.Fprintf(&b, "<li><a href='https://blog.example.net/%d/%02d/'>%s %d</a></li>\n", 2011-i/12, 12-i%12, []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}[11-i%12], 2011-i/12)
	}
	b.WriteString(`</ul></section>
</aside>
</div>
<footer id="colophon" class="site-footer" role="contentinfo">
<div class="site-info"><a href="https://wordpress.example.org/">Proudly powered by a blog engine</a></div>
</footer>
</div>
</body>
</html>
`)
	return []byte(b.String())
}
