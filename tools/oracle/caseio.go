package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// caseFile is one golden file: the generator's fields are kept as raw JSON
// (so the input is written back byte-for-byte after compaction) and the
// oracle fills kubeSchedulerVersion, config, summary and expected.
type caseFile struct {
	raw map[string]json.RawMessage
}

func readCase(path string) (*caseFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cf := &caseFile{raw: map[string]json.RawMessage{}}
	if err := json.Unmarshal(data, &cf.raw); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cf, nil
}

func (c *caseFile) str(key string) string {
	var s string
	_ = json.Unmarshal(c.raw[key], &s)
	return s
}

func (c *caseFile) family() string {
	if f := c.str("family"); f != "" {
		return f
	}
	return "cases"
}

// generic decodes a raw field keeping numbers exact.
func generic(raw json.RawMessage) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// encode marshals without HTML escaping; maps come out with sorted keys.
func encode(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

func compact(raw json.RawMessage) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// ordered is a JSON object that keeps its keys in insertion order, so results
// print their fields in the order of the shared golden files.
type ordered struct {
	keys []string
	vals map[string]any
}

func newOrdered() *ordered { return &ordered{vals: map[string]any{}} }

func (o *ordered) set(k string, v any) *ordered {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
	return o
}

func (o *ordered) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(encode(k))
		buf.WriteByte(':')
		buf.Write(encode(o.vals[k]))
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// writeCase prints the file in the shared pretty-printing: one top-level key a
// line, one input item a line, one expected result a line.
func writeCase(path string, c *caseFile, version string, config any, summary any, expected any) error {
	var b bytes.Buffer
	b.WriteString("{\n")
	line := func(key string, val []byte) {
		b.WriteString(string(encode(key)) + ":")
		b.Write(val)
		b.WriteString(",\n")
	}
	line("name", compact(c.raw["name"]))
	if _, ok := c.raw["family"]; ok {
		line("family", compact(c.raw["family"]))
	}
	line("seed", compact(c.raw["seed"]))
	line("generatorVersion", compact(c.raw["generatorVersion"]))
	line("kubeSchedulerVersion", encode(version))
	line("config", encode(config))
	if a, ok := c.raw["analysis"]; ok {
		line("analysis", compact(a))
	}
	var input struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(c.raw["input"], &input); err != nil {
		return err
	}
	b.WriteString(`"input":{"apiVersion":"v1","kind":"List","metadata":{},"items":[` + "\n")
	for i, it := range input.Items {
		b.WriteString(" ")
		b.Write(compact(it))
		if i < len(input.Items)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]},\n")
	if summary != nil {
		line("summary", encode(summary))
	}
	if list, ok := expected.([]any); ok {
		b.WriteString("\"expected\":[\n")
		for i, r := range list {
			b.WriteString(" ")
			b.Write(encode(r))
			if i < len(list)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("]\n")
	} else {
		b.WriteString("\"expected\":")
		b.Write(encode(expected))
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
