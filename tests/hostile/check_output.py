#!/usr/bin/env python3
"""check_output: asserts that a built site carries nothing executable that
came from content. Reads every .html/.xml/.json/.svg file under the output
folder given as argv[1] with Python's HTML parser and fails (exit 1, one line
per finding) on:
  - a <script> element other than the theme's own two
    (<script src="{root}assets/theme.js"> and ".../site.js"), or any inline
    script text;
  - an on* event-handler attribute on any element;
  - a javascript:, vbscript:, data: or file: URL (after the decoding a
    browser does: entities, whitespace and controls, case) in a URL
    attribute (href, src, action, formaction, srcset, poster, cite,
    background, data, xlink:href) or in <meta http-equiv=refresh>;
  - an element the sanitiser must never let through (iframe, object, embed,
    form, base, math...; svg is allowed: the theme draws its icons with it,
    and the checks above apply inside it too).
Used by tests/integration/hostile_test.sh."""
import html
import os
import re
import sys
from html.parser import HTMLParser

URL_ATTRS = {"href", "src", "action", "formaction", "srcset", "poster", "cite",
             "background", "data", "xlink:href", "ping", "manifest"}
BAD_ELEMENTS = {"iframe", "object", "embed", "form", "base", "math",
                "frame", "frameset", "applet", "portal"}
THEME_SCRIPT = re.compile(r"^(\./|/|(\.\./)+|[a-z]+://[^\"<>]*/)?assets/(theme|site)\.js$")
BAD_SCHEME = re.compile(r"^(javascript|vbscript|data|file|livescript|mocha):", re.I)


def unsafe_url(value):
    v = html.unescape(value or "")
    v = "".join(ch for ch in v if ord(ch) > 0x20 and ord(ch) != 0x7f)
    return bool(BAD_SCHEME.match(v))


class Checker(HTMLParser):
    def __init__(self, path):
        super().__init__(convert_charrefs=True)
        self.path = path
        self.findings = []
        self.in_script = False

    def bad(self, what):
        self.findings.append("%s:%d: %s" % (self.path, self.getpos()[0], what))

    def handle_starttag(self, tag, attrs):
        self.check(tag, attrs)
        if tag == "script":
            self.in_script = True

    def handle_startendtag(self, tag, attrs):
        self.check(tag, attrs)

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False

    def handle_data(self, data):
        if self.in_script and data.strip():
            self.bad("inline script text %r" % data[:60])

    def check(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            if not THEME_SCRIPT.match(a.get("src") or ""):
                self.bad("script element not from the theme: %r" % (attrs,))
        if tag in BAD_ELEMENTS:
            self.bad("<%s> element" % tag)
        for name, value in attrs:
            if name.startswith("on"):
                self.bad("event handler %s=%r on <%s>" % (name, value, tag))
            if name in URL_ATTRS:
                for part in (value or "").split(",") if name == "srcset" else [value]:
                    if unsafe_url(part):
                        self.bad("unsafe URL %s=%r on <%s>" % (name, value, tag))
            if name == "style" and re.search(r"expression|javascript|url\(", value or "", re.I):
                self.bad("style attribute %r" % value)
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "refresh":
            url = (a.get("content") or "").partition("=")[2]
            if unsafe_url(url):
                self.bad("meta refresh to %r" % url)


def main():
    root = sys.argv[1]
    findings = []
    files = 0
    for dirpath, _, names in os.walk(root):
        for name in names:
            if not name.endswith((".html", ".htm", ".xml", ".svg", ".json")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            files += 1
            if name.endswith(".json"):
                # JSON is data, not markup: only raw script tags matter there
                if re.search(r"<script", text, re.I):
                    findings.append("%s: <script in JSON" % path)
                continue
            c = Checker(path)
            c.feed(text)
            c.close()
            findings += c.findings
    for f in findings:
        print(f)
    if files == 0:
        print("%s: no output files" % root)
        return 1
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
