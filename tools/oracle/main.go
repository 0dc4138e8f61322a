// Command oracle records Schedlab conformance golden files from the upstream
// kube-scheduler framework, imported as a library at one pinned release.
//
//	oracle --in DIR|FILE --out DIR
//
// It reads case files (name, seed, config, input, analysis), replays them with
// the deterministic rules of the conformance generator README and writes the
// same files with kubeSchedulerVersion, config.plugins, expected and summary
// as the upstream framework decides them.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"time"
	"unicode"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	configv1 "k8s.io/kubernetes/pkg/scheduler/apis/config/v1"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	schedmetrics "k8s.io/kubernetes/pkg/scheduler/metrics"
)

func kubernetesVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "k8s.io/kubernetes" {
				return d.Version
			}
		}
	}
	return "unknown"
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "bench" {
		runBench(os.Args[2:])
		return
	}
	in := flag.String("in", "", "case file or directory of case-*.json files")
	out := flag.String("out", "", "output directory")
	showVersion := flag.Bool("version", false, "print the recorded kube-scheduler release")
	showLogs := flag.Bool("klog", false, "show the upstream scheduler's log lines")
	klog.InitFlags(nil)
	flag.Parse()
	if !*showLogs {
		_ = flag.Set("logtostderr", "false")
		klog.SetOutput(io.Discard)
	}
	version := kubernetesVersion()
	if *showVersion {
		fmt.Println(version)
		return
	}
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: oracle --in DIR|FILE --out DIR")
		os.Exit(2)
	}
	// Asynchronous preemption only moves the evictions to a goroutine; the
	// replay waits for them anyway, so run them synchronously when the gate allows.
	_ = utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{asyncPreemptionGate(): false})
	schedmetrics.Register()

	files := []string{*in}
	if st, err := os.Stat(*in); err == nil && st.IsDir() {
		files, _ = filepath.Glob(filepath.Join(*in, "case-*.json"))
		sort.Strings(files)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fatal(err)
	}
	failed := 0
	for _, f := range files {
		t0 := time.Now()
		if err := recordFile(f, filepath.Join(*out, filepath.Base(f)), version); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", f, err)
			failed++
			continue
		}
		fmt.Fprintf(os.Stderr, "recorded %s (%s)\n", filepath.Base(f), time.Since(t0).Round(time.Millisecond))
	}
	if failed > 0 {
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

var touchedGates = map[string]bool{} // gate -> its default before any case set it

// applyFeatureGates sets the case's gates, resetting those an earlier case set.
// Gates this release no longer knows (GA and removed) are left alone.
func applyFeatureGates(gates map[string]any) {
	want := map[string]bool{}
	for k, def := range touchedGates {
		want[k] = def
	}
	for k, v := range gates {
		b, _ := v.(bool)
		if _, ok := touchedGates[k]; !ok {
			if !knownGate(k) {
				continue
			}
			touchedGates[k] = utilfeature.DefaultFeatureGate.Enabled(featureName(k))
		}
		want[k] = b
	}
	for k, v := range want {
		if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{k: v}); err != nil {
			klog.V(2).InfoS("feature gate not set", "gate", k, "err", err)
		}
	}
}

func knownGate(name string) bool {
	_, ok := utilfeature.DefaultMutableFeatureGate.GetAll()[featureName(name)]
	return ok
}

func featureName(s string) featuregate.Feature { return featuregate.Feature(s) }

// loadSchedulerConfig decodes, defaults and validates the case's
// KubeSchedulerConfiguration with the release's own v1 config code.
func loadSchedulerConfig(cfg map[string]any) (*config.KubeSchedulerConfiguration, error) {
	var data []byte
	if sc, ok := cfg["schedulerConfiguration"]; ok {
		data = encode(sc)
	} else {
		obj := map[string]any{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
		if p, ok := cfg["percentageOfNodesToScore"]; ok && p != nil {
			obj["percentageOfNodesToScore"] = p
		}
		data = encode(obj)
	}
	obj, _, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	kc, ok := obj.(*config.KubeSchedulerConfiguration)
	if !ok {
		return nil, fmt.Errorf("not a KubeSchedulerConfiguration: %T", obj)
	}
	if err := validation.ValidateKubeSchedulerConfiguration(kc); err != nil {
		return nil, err
	}
	if len(kc.Profiles) != 1 {
		return nil, fmt.Errorf("want exactly one profile, got %d", len(kc.Profiles))
	}
	return kc, nil
}

// pluginsJSON lists the framework's enabled plugins per extension point, the
// way the golden files print them (score entries carry their weight).
func pluginsJSON(p *config.Plugins) map[string]any {
	out := map[string]any{}
	v := reflect.ValueOf(p).Elem()
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		set, ok := v.Field(i).Interface().(config.PluginSet)
		if !ok || name == "MultiPoint" || len(set.Enabled) == 0 {
			continue
		}
		key := string(unicode.ToLower(rune(name[0]))) + name[1:]
		if name == "Score" {
			var list []any
			for _, pl := range set.Enabled {
				list = append(list, map[string]any{"name": pl.Name, "weight": pl.Weight})
			}
			out[key] = list
		} else {
			var list []string
			for _, pl := range set.Enabled {
				list = append(list, pl.Name)
			}
			out[key] = list
		}
	}
	return out
}

// pluginConfigJSON is the profile's pluginConfig after v1 defaulting.
func pluginConfigJSON(kc *config.KubeSchedulerConfiguration) (any, error) {
	ser := jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, scheme.Scheme, scheme.Scheme, jsonserializer.SerializerOptions{})
	enc := scheme.Codecs.EncoderForVersion(ser, configv1.SchemeGroupVersion)
	var buf strings.Builder
	if err := enc.Encode(kc, &buf); err != nil {
		return nil, err
	}
	g, err := generic(json.RawMessage(buf.String()))
	if err != nil {
		return nil, err
	}
	profiles, _ := g.(map[string]any)["profiles"].([]any)
	if len(profiles) == 0 {
		return nil, nil
	}
	return profiles[0].(map[string]any)["pluginConfig"], nil
}

func recordFile(inPath, outPath, version string) error {
	c, err := readCase(inPath)
	if err != nil {
		return err
	}
	cfgAny, err := generic(c.raw["config"])
	if err != nil {
		return err
	}
	cfg, _ := cfgAny.(map[string]any)
	if cfg == nil {
		cfg = map[string]any{}
	}
	gates, _ := cfg["featureGates"].(map[string]any)
	applyFeatureGates(gates)
	kc, err := loadSchedulerConfig(cfg)
	if err != nil {
		return fmt.Errorf("scheduler configuration: %w", err)
	}
	cl, err := parseItems(c.raw["input"])
	if err != nil {
		return err
	}
	family := c.family()
	var analysis struct {
		Type        string          `json:"type"`
		Nodes       []string        `json:"nodes"`
		PodTemplate json.RawMessage `json:"podTemplate"`
		MaxReplicas int             `json:"maxReplicas"`
	}
	if raw, ok := c.raw["analysis"]; ok {
		if err := json.Unmarshal(raw, &analysis); err != nil {
			return err
		}
	}
	if analysis.Type == "node-loss" {
		loseNodes(cl, analysis.Nodes)
	}
	var template *v1.Pod
	if analysis.Type == "capacity" {
		template = &v1.Pod{}
		if err := json.Unmarshal(analysis.PodTemplate, template); err != nil {
			return err
		}
		template.Spec.NodeName = ""
		cl.defaultPod(template)
	}

	// kube-controller-manager's resourceclaim controller runs before the scheduler sees pods.
	if err := runClaimController(cl); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt := newRuntimeEnv(cl, nil)
	f, factory, err := newFramework(ctx, kc, rt)
	if err != nil {
		return fmt.Errorf("framework: %w", err)
	}
	rt.volumes.pvLister = factory.Core().V1().PersistentVolumes().Lister()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	waitForDRA(f, cl)
	defer factory.Shutdown()
	defer cancel()

	e := &engine{ctx: ctx, fw: f, rt: rt, items: cl.nodes, order: nodeTreeOrder(cl.nodes), podsOn: map[string][]*v1.Pod{},
		percentage: f.PercentageOfNodesToScore(), preemption: analysis.Type != "capacity"}
	if kc.PercentageOfNodesToScore != nil {
		e.globalPct = *kc.PercentageOfNodesToScore
	}
	var pending []*v1.Pod
	for _, p := range cl.pods {
		if p.Spec.NodeName != "" {
			e.podsOn[p.Spec.NodeName] = append(e.podsOn[p.Spec.NodeName], p)
		} else {
			pending = append(pending, p)
		}
	}
	sort.SliceStable(pending, func(i, j int) bool { return priorityOf(pending[i]) > priorityOf(pending[j]) })

	cfg["plugins"] = pluginsJSON(f.ListPlugins())
	if _, ok := cfg["pluginConfig"]; ok {
		pc, err := pluginConfigJSON(kc)
		if err != nil {
			return err
		}
		cfg["pluginConfig"] = pc
	}
	if _, ok := cfg["nodeOrder"]; ok {
		cfg["nodeOrder"] = e.nodeNames()
	}

	var summary any
	var expected any
	switch analysis.Type {
	case "capacity":
		expected, err = e.capacity(template, analysis.MaxReplicas)
	default:
		var results []any
		var rescheduled, unschedulable, victims int
		for k, p := range pending {
			r, err := e.replayPod(p, k)
			if err != nil {
				return fmt.Errorf("pod %s: %w", podKey(p), err)
			}
			results = append(results, r.json(family == "scale"))
			if r.final.node != "" {
				rescheduled++
			} else {
				unschedulable++
			}
			victims += len(r.victims)
		}
		if results == nil {
			results = []any{}
		}
		expected = results
		if analysis.Type == "node-loss" {
			summary = newOrdered().set("rescheduled", rescheduled).set("unschedulable", unschedulable).set("victims", victims)
		}
	}
	if err != nil {
		return err
	}
	return writeCase(outPath, c, version, cfg, summary, expected)
}

// loseNodes removes the lost nodes and turns their pods into pending pods at
// the same position in items, with no node and an empty status.
func loseNodes(cl *cluster, lost []string) {
	gone := map[string]bool{}
	for _, n := range lost {
		gone[n] = true
	}
	var nodes []*v1.Node
	for _, n := range cl.nodes {
		if !gone[n.Name] {
			nodes = append(nodes, n)
		}
	}
	cl.nodes = nodes
	for _, p := range cl.pods {
		if gone[p.Spec.NodeName] {
			p.Spec.NodeName = ""
			p.Status = v1.PodStatus{}
		}
	}
}

// capacity binds clones of the template one at a time until one fits nowhere
// or maxReplicas are bound; PostFilter does not run.
func (e *engine) capacity(template *v1.Pod, maxReplicas int) (any, error) {
	perNode := map[string]int{}
	replicas := 0
	stop := "maxReplicas"
	for k := 0; k < maxReplicas; k++ {
		clone := template.DeepCopy()
		clone.Name = fmt.Sprintf("%s-%d", template.Name, k)
		clone.UID = uidFor("pod", clone.Namespace, clone.Name)
		clone.ObjectMeta.CreationTimestamp = metav1.Time{}
		r, err := e.replayPod(clone, k)
		if err != nil {
			return nil, err
		}
		if r.final.node == "" {
			stop = r.final.message
			break
		}
		replicas++
		perNode[r.final.node]++
	}
	return newOrdered().set("replicas", replicas).set("perNode", perNode).set("stopReason", stop), nil
}
