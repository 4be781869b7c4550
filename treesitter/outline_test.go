package treesitter

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
	"github.com/fsrb/fsrb/core"
)

// outlineCases are texts of each language and their outlines as
// dumpOutline writes them (outline_dump_test.go): Lead:Start-End, the
// key (or the first line, quoted), the body's [Head,Tail), kids
// indented.
var outlineCases = []struct {
	name, path, text, want string
}{
	{
		name: "python class with methods, statements, decorators and doc comments",
		path: "greet.py",
		text: `import os
from a.b import c as d

# Doc of Greeter.
class Greeter(Base):
    """Greets."""

    x = 1

    # doc of hello
    @property
    def hello(self, name):
        x = 1
        self.y += 2
        for job in jobs:
            run(job)
        if x > 1:
            return 2
        elif x:
            print("a")
        else:
            # ... existing code ...
            pass
        try:
            os.remove(p)
        except OSError as e:
            log.warn(e)
        return x

def main():
    Greeter().hello("x")
`,
		want: `0-1 import os
1-2 import a.b
3:4-28 class Greeter [5,28)
  5-6 "\"\"\"Greets.\"\"\""
  7-8 assign x
  9:11-28 method Greeter.hello [12,28)
    12-13 assign x
    13-14 assign self.y
    14-16 for job in jobs [15,16)
      15-16 call run
    16-23 if x > 1 [17,18)
      17-18 return
      18-20 elif x [19,20)
        19-20 call print
      20-23 else [21,23)
        21-22 "# ... existing code ..."
        22-23 "pass"
    23-27 try [24,25)
      24-25 call os.remove
      25-27 except OSError as e [26,27)
        26-27 call log.warn
    27-28 return
29-31 function main [30,31)
  30-31 call Greeter().hello
`,
	},
	{
		name: "python snippet: an indented method with markers at several levels",
		path: "greet.py",
		text: `    # ... existing code ...

    def hello(self):
        x = 1
        if x:
            # ... existing code ...
        # ... existing code ...
`,
		want: `0-1 "# ... existing code ..."
2-7 function hello [3,7)
  3-4 assign x
  4-6 if x [5,6)
    5-6 "# ... existing code ..."
  6-7 "# ... existing code ..."
`,
	},
	{
		name: "python snippet: a class holding a marker only",
		path: "greet.py",
		text: `class Greeter:
    # ... existing code ...
`,
		want: `0-2 class Greeter [1,2)
  1-2 "# ... existing code ..."
`,
	},
	{
		name: "go methods, receivers, doc comments and statements",
		path: "server.go",
		text: `package main

import (
	"fmt"
	"os"
)

// Server serves.
// Second line.
type Server struct {
	addr string
}

// Start starts.
func (s *Server) Start(ctx context.Context) error {
	addr := s.addr
	if err := check(); err != nil {
		return err
	} else if x {
		fmt.Println("a")
	} else {
		// ... existing code ...
	}
	for i := 0; i < 3; i++ {
		x += i
	}
	switch x {
	case 1:
		fmt.Println(1)
	}
	go func() {
		run()
	}()
	return nil
}

func (c Client) Start() {}

func main() { fmt.Println(os.Args) }
`,
		want: `0-1 "package main"
2-6 import [3,5)
  3-4 import fmt
  4-5 import os
7:9-12 struct Server [10,11)
  10-11 field addr
13:14-35 method Server.Start [15,34)
  15-16 assign addr
  16-23 if err := check(); err != nil [17,18)
    17-18 return
    18-20 else if x [19,20)
      19-20 call fmt.Println
    20-23 else [21,22)
      21-22 "// ... existing code ..."
  23-26 for i := 0; i < 3; i++ [24,25)
    24-25 assign x
  26-30 switch x [27,29)
    27-29 case 1 [28,29)
      28-29 call fmt.Println
  30-33 "go func() {" [31,32)
    31-32 call run
  33-34 return
36-37 method Client.Start
38-39 function main
`,
	},
	{
		name: "go snippet: statements of a function body, markers",
		path: "server.go",
		text: `	addr := s.addr
	// ... existing code ...
	if err != nil {
		// ... existing code ...
	}
`,
		want: `0-1 assign addr
1-2 "// ... existing code ..."
2-5 if err != nil [3,4)
  3-4 "// ... existing code ..."
`,
	},
	{
		name: "rust impls, traits, attributes and doc comments",
		path: "lib.rs",
		text: `use std::fmt;

/// A wrapper.
#[derive(Debug)]
pub struct Wrapper<T> {
    inner: T,
}

impl<T> fmt::Display for Wrapper<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "x")
    }
}

impl Server {
    /// Starts.
    pub fn start(&mut self) -> Result<()> {
        let addr = self.addr.clone();
        for job in self.jobs.iter() {
            run(job);
        }
        match addr {
            Some(x) => {
                println!("{}", x);
            }
            None => {}
        }
        self.count += 1;
        Ok(())
    }
}

trait Store {
    fn get(&self) -> u32;
}
`,
		want: `0-1 import std::fmt
2:4-7 struct Wrapper [5,6)
  5-6 field inner
8-13 impl fmt::Display for Wrapper [9,12)
  9-12 method Wrapper.fmt [10,11)
    10-11 call write!
14-31 impl Server [15,30)
  15:16-30 method Server.start [17,29)
    17-18 assign addr
    18-21 for job in self.jobs.iter() [19,20)
      19-20 call run
    21-27 match addr [22,26)
      22-25 case Some(x) [23,24)
        23-24 call println!
      25-26 case None
    27-28 assign self.count
    28-29 call Ok
32-35 trait Store [33,34)
  33-34 method Store.get
`,
	},
	{
		name: "tsx component, decorated class",
		path: "app.tsx",
		text: `import React, { useState } from "react";

/** The app. */
export function App({ name }: Props) {
  const [n, setN] = useState(0);
  useEffect(() => {
    document.title = name;
  }, [name]);
  return (
    <div className="app">
      <h1>{name}</h1>
      {/* ... existing code ... */}
      <p>
        {n}
      </p>
    </div>
  );
}

@Component({ selector: "x" })
export class Greeter extends Base {
  private count = 0;

  // doc
  greet(who: string): string {
    for (const x of xs) {
      this.count++;
    }
    return who;
  }
}

export const handler = async (req: Request) => {
  await fetch(req.url);
};
`,
		want: `0-1 import react
2:3-18 function App [4,17)
  4-5 assign [n, setN]
  5-8 call useEffect [6,7)
    6-7 assign document.title
  8-17 return [10,15)
    10-11 "<h1>{name}</h1>"
    11-12 "{/* ... existing code ... */}"
    12-15 "<p>" [13,14)
      13-14 "{n}"
19:20-31 class Greeter [21,30)
  21-22 field count
  23:24-30 method Greeter.greet [25,29)
    25-28 for (const x of xs) [26,27)
      26-27 "this.count++;"
    28-29 return
32-35 function handler [33,34)
  33-34 call fetch
`,
	},
	{
		name: "typescript snippet: an indented method of a class, markers",
		path: "greeter.ts",
		text: `  // ... existing code ...

  greet(who: string): string {
    // ... existing code ...
    return who;
  }
`,
		want: `0-1 "// ... existing code ..."
2-6 method greet [3,5)
  3-4 "// ... existing code ..."
  4-5 return
`,
	},
	{
		name: "javascript statements, interface-free",
		path: "main.js",
		text: `const a = 1, b = 2;
let c;
c = a + b;
if (c > 2) {
  console.log(c);
} else {
  // ... existing code ...
}
try {
  run();
} catch (e) {
  report(e);
}
module.exports = { a, b };
`,
		want: `0-1 assign a, b
1-2 assign c
2-3 assign c
3-8 if (c > 2) [4,5)
  4-5 call console.log
  5-8 else [6,7)
    6-7 "// ... existing code ..."
8-13 try [9,10)
  9-10 call run
  10-13 catch (e) [11,12)
    11-12 call report
13-14 assign module.exports
`,
	},
	{
		name: "java class with annotations, statements and an else marker",
		path: "Server.java",
		text: `package app;

import java.util.List;

/** Server. */
@Service
public class Server extends Base {
    private int port = 8080;

    // Starts.
    @Override
    public void start(int p) {
        int x = p + 1;
        for (int i = 0; i < x; i++) {
            run(i);
        }
        if (x > 2) {
            log.info("x");
        } else {
            // ... existing code ...
        }
        return;
    }
}
`,
		want: `0-1 "package app;"
2-3 import java.util.List
4:6-24 class Server [7,23)
  7-8 field port
  9:11-23 method Server.start [12,22)
    12-13 assign x
    13-16 for (int i = 0; i < x; i++) [14,15)
      14-15 call run
    16-21 if (x > 2) [17,18)
      17-18 call log.info
      18-21 else [19,20)
        19-20 "// ... existing code ..."
    21-22 return
`,
	},
	{
		name: "ruby class, method, blocks and an else of statements",
		path: "greeter.rb",
		text: `require "json"

# Greeter.
class Greeter < Base
  attr_reader :name

  # Says hi.
  def hello(who)
    x = 1
    if x > 1
      puts "a"
    else
      # ... existing code ...
    end
    items.each do |i|
      run(i)
    end
  end
end
`,
		want: `0-1 call require
2:3-19 class Greeter [4,18)
  4-5 call attr_reader
  6:7-18 method Greeter.hello [8,17)
    8-9 assign x
    9-14 if x > 1 [10,11)
      10-11 call puts
      11-13 else [12,13)
        12-13 "# ... existing code ..."
    14-17 call items.each [15,16)
      15-16 call run
`,
	},
	{
		name: "c struct and function",
		path: "main.c",
		text: `#include <stdio.h>

/* A server. */
struct server {
    int port;
};

int main(int argc, char **argv) {
    int x = 1;
    for (int i = 0; i < x; i++) {
        printf("%d", i);
    }
    return 0;
}
`,
		want: `0-1 "#include <stdio.h>"
2:3-6 struct server [4,5)
  4-5 field port
7-14 function main [8,13)
  8-9 assign x
  9-12 for (int i = 0; i < x; i++) [10,11)
    10-11 call printf
  12-13 return
`,
	},
	{
		name: "rust snippet: an indented method of an impl, markers at two levels",
		path: "server.rs",
		text: `    /// Starts.
    pub fn start(&mut self) -> Result<()> {
        // ... existing code ...
        for job in self.jobs.iter() {
            // ... existing code ...
            run(job);
        }
        Ok(())
    }
`,
		want: `0:1-9 function start [2,8)
  2-3 "// ... existing code ..."
  3-7 for job in self.jobs.iter() [4,6)
    4-5 "// ... existing code ..."
    5-6 call run
  7-8 call Ok
`,
	},
	{
		name: "go snippet: a method with markers at two levels",
		path: "server.go",
		text: `func (s *Server) Start(ctx context.Context) error {
	// ... existing code ...
	for _, job := range s.jobs {
		// ... existing code ...
		go run(job)
	}
	return nil
}
`,
		want: `0-8 method Server.Start [1,7)
  1-2 "// ... existing code ..."
  2-6 for _, job := range s.jobs [3,5)
    3-4 "// ... existing code ..."
    4-5 "go run(job)"
  6-7 return
`,
	},
	{
		name: "javascript snippet: a class whose other members a marker keeps",
		path: "calculator.js",
		text: `class Calculator {
  // ... existing code ...

  exp(a) {
    this.result = Math.exp(a);
    return this;
  }
}
`,
		want: `0-8 class Calculator [1,7)
  1-2 "// ... existing code ..."
  3-7 method Calculator.exp [4,6)
    4-5 assign this.result
    5-6 return
`,
	},
	{
		name: "go grouped declarations",
		path: "consts.go",
		text: `package p

const (
	A = 1
	// ... existing code ...
	B = 2
)

type (
	X struct {
		n int
	}
	Y int
)

var v = 1
`,
		want: `0-1 "package p"
2-7 "const (" [3,6)
  3-4 assign A
  4-5 "// ... existing code ..."
  5-6 assign B
8-14 "type (" [9,13)
  9-12 struct X [10,11)
    10-11 field n
  12-13 type Y
15-16 assign v
`,
	},
}

func TestOutline(t *testing.T) {
	c := NewCache(4)
	for _, tc := range outlineCases {
		t.Run(tc.name, func(t *testing.T) {
			items, ok := c.Outline(tc.path, tc.text)
			if !ok {
				t.Fatalf("no outline for %s", tc.path)
			}
			if got := dumpOutline(tc.text, items); got != tc.want {
				t.Errorf("outline of %s:\n%s\nwant:\n%s", tc.path, got, tc.want)
			}
			// The one-shot function reads the same outline.
			one, _ := Outline(tc.path, tc.text)
			if got := dumpOutline(tc.text, one); got != tc.want {
				t.Errorf("one-shot outline of %s:\n%s\nwant:\n%s", tc.path, got, tc.want)
			}
		})
	}
}

// TestOutlineNoGrammar: a path no grammar claims has no outline; the
// resolver falls back to equal lines.
func TestOutlineNoGrammar(t *testing.T) {
	if items, ok := NewCache(1).Outline("notes.txt", "a\nb\n"); ok || items != nil {
		t.Errorf("an outline for a text file: %v, %v", items, ok)
	}
}

// TestOutlineErrorsAreNoDefinitions: a text that does not parse still
// has an outline, but a definition whose keyword sits in an ERROR node is
// none (what parsed inside the error still counts).
func TestOutlineErrorsAreNoDefinitions(t *testing.T) {
	for _, tc := range []struct{ path, text, broken, whole string }{
		{"a.py", "x = (\ndef f():\n    pass\n", "f", ""},
		{"a.py", "class A:\n  def f(self):\n    return [\n\ndef g():\n    pass\n", "g", "A"},
		{"a.rs", "fn f() {\n    let x = ;\n    fn g() {}\n", "f", "g"},
	} {
		items, ok := NewCache(1).Outline(tc.path, tc.text)
		if !ok {
			t.Errorf("%s: no outline", tc.path)
		}
		names := map[string]bool{}
		var walk func([]core.Item)
		walk = func(items []core.Item) {
			for _, it := range items {
				names[it.Name] = true
				walk(it.Kids)
			}
		}
		walk(items)
		if names[tc.broken] || !names[tc.whole] {
			t.Errorf("%q: definitions %v, want %q and not %q:\n%s", tc.text, names, tc.whole, tc.broken, dumpOutline(tc.text, items))
		}
	}
}

// TestOutlineCached: the outline of a text is read once per cached
// tree; a new text of the same path is read afresh.
func TestOutlineCached(t *testing.T) {
	c := NewCache(1)
	text := outlineCases[0].text
	a, _ := c.Outline("greet.py", text)
	b, _ := c.Outline("greet.py", text)
	if len(a) == 0 || &a[0] != &b[0] {
		t.Errorf("the same text was outlined twice")
	}
	d, _ := c.Outline("greet.py", "x = 1\n"+text)
	if len(d) != len(a)+1 || d[0].Key != "assign x" || d[1].Key != a[0].Key || d[1].Start != a[0].Start+1 {
		t.Errorf("an edited text's outline:\n%s", dumpOutline("x = 1\n"+text, d))
	}
}

// TestDedented: the common indentation goes, tabs and spaces alike, blank
// lines aside; a text with none is returned as is.
func TestDedented(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"    a\n\n      b\n    c\n", "a\n\n  b\nc\n"},
		{"\t\ta\n\t\t\tb\n", "a\n\tb\n"},
		{"\ta\n    b\n", "\ta\n    b\n"},
		{"a\n  b\n", "a\n  b\n"},
		{"  a\n   \n  b", "a\n \nb"},
	} {
		if got := string(dedented([]byte(tc.in))); got != tc.want {
			t.Errorf("dedented(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestOutlineDefinitionsAgreeWithQuery: the outline matches definitions
// on the flattened tree, the syntax checker's messages with the query
// engine; a definition item is one the query finds on its line, of its
// kind and name.
func TestOutlineDefinitionsAgreeWithQuery(t *testing.T) {
	c := NewCache(4)
	for _, tc := range outlineCases {
		items, _ := c.Outline(tc.path, tc.text)
		tree, err := c.Parse(tc.path, 0, []byte(tc.text), nil)
		if err != nil {
			t.Fatal(err)
		}
		if tree.HasError() {
			continue // outlined through a repair: the query sees another text
		}
		defs, err := tree.Definitions()
		if err != nil {
			t.Fatal(err)
		}
		var walk func([]core.Item)
		walk = func(items []core.Item) {
			for _, it := range items {
				walk(it.Kids)
				if !it.Definition() {
					continue
				}
				found := false
				for _, d := range defs {
					short := d.Name[strings.LastIndexAny(d.Name, ".:#")+1:]
					if d.SignatureLine-1 == it.Start && (d.Kind == it.Kind || it.Kind == "method") && strings.HasSuffix(it.Name, short) {
						found = true
					}
				}
				if !found {
					t.Errorf("%s: %s %s at line %d is no definition of the query's: %+v", tc.name, it.Kind, it.Name, it.Start, defs)
				}
			}
		}
		walk(items)
	}
}

// TestOutlineConcurrent: callers outline one text at once (a language
// server validates on several goroutines); run with -race.
func TestOutlineConcurrent(t *testing.T) {
	c := NewCache(2)
	want := dumpOutline(outlineCases[0].text, itemsOnly(Outline(outlineCases[0].path, outlineCases[0].text)))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, tc := range outlineCases[:4] {
				items, _ := c.Outline(tc.path, tc.text)
				if tc.text == outlineCases[0].text && dumpOutline(tc.text, items) != want {
					t.Errorf("a concurrent outline differs")
				}
			}
		})
	}
	wg.Wait()
}

// itemsOnly drops an outline's ok.
func itemsOnly(items []core.Item, _ bool) []core.Item { return items }

// TestOutlineKeptApartFromTrees: an answer's many snippets of one file
// leave the file's outline in the cache, though they outnumber the
// trees a path keeps; the cache keeps a bounded number of outlines.
func TestOutlineKeptApartFromTrees(t *testing.T) {
	c := NewCache(4)
	file := outlineCases[0].text
	first, _ := c.Outline("greet.py", file)
	for i := range 2 * treesPerFile {
		c.Outline("greet.py", "def f():\n    return "+strings.Repeat("1", i+1)+"\n")
	}
	again, _ := c.Outline("greet.py", file)
	if &first[0] != &again[0] {
		t.Error("the file was outlined again after its snippets")
	}
	for i := range 2 * outlinesKept {
		c.Outline("greet.py", "x = "+strings.Repeat("1", i+1)+"\n")
	}
	if n := len(c.outlines.entries); n > outlinesKept {
		t.Errorf("the cache keeps %d outlines, more than %d", n, outlinesKept)
	}
}

// TestOutlineWellFormed outlines the sample of every language
// (testdata/treesitter/defs) and the benchmarks' generated files: items in order and apart, each within its
// parent, a body after its item's first line, a definition keyed by its
// kind.
func TestOutlineWellFormed(t *testing.T) {
	files := samplePaths(t)
	generated := map[string]string{"gen.go": goFile(2000), "gen.py": gen.JoinLines(gen.Code(2000, 1))}
	files = append(files, "gen.go", "gen.py")
	c := NewCache(4)
	for _, f := range files {
		text, ok := generated[f]
		if !ok {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			text = string(src)
		}
		items, ok := c.Outline(filepath.Base(f), text)
		if !ok || len(items) == 0 {
			t.Errorf("%s: no outline", f)
			continue
		}
		lines := strings.Count(text, "\n") + 1
		defs := 0
		var check func(parent *core.Item, items []core.Item)
		check = func(parent *core.Item, items []core.Item) {
			for i, it := range items {
				bad := func(why string) {
					t.Errorf("%s: item %+v: %s\n%s", f, it, why, dumpOutline(text, items))
				}
				switch {
				case it.Lead > it.Start || it.Start >= it.End || it.End > lines:
					bad("lines out of order")
				case i > 0 && it.Lead < items[i-1].End:
					bad("overlaps the item before")
				case parent != nil && (it.Lead < parent.Start || it.End > parent.End):
					bad("outside its parent")
				case it.Kids != nil && (it.Head <= it.Start || it.Head > it.Tail || it.Tail > it.End):
					bad("a body out of its item")
				case it.Definition() && !strings.HasPrefix(it.Key, it.Kind+" "):
					bad("a definition keyed otherwise")
				}
				if it.Definition() {
					defs++
				}
				check(&items[i], it.Kids)
			}
		}
		check(nil, items)
		// HTML's query has a predicate, which the outline does not read;
		// YAML's keys are nested in a document no level reads through.
		if defs == 0 && !strings.HasSuffix(f, ".html") && !strings.HasSuffix(f, ".yaml") {
			t.Errorf("%s: no definition in the outline:\n%s", f, dumpOutline(text, items))
		}
	}
}
