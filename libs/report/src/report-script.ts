/**
 * The report's browser script (plain ES2017, inlined). It reads the embedded JSON and draws the
 * views; every string from the data goes through text nodes or setAttribute, never innerHTML.
 * Kept free of backticks and "${" so it can live in this template literal verbatim, and of
 * non-ASCII characters (written as \u escapes in its strings): one would make V8 hold every CLI
 * pack that includes this module as a two-byte string.
 */
export const REPORT_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var root = document.getElementById('report');
  var resource = 'cpu';
  var selections = data.runs.map(function () { return { node: null, pod: null }; });

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'onclick') node.addEventListener('click', v);
      else if (k === 'className') node.className = v;
      else if (k === 'style') node.setAttribute('style', v);
      else node.setAttribute(k, v === true ? '' : String(v));
    });
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    });
    return node;
  }

  function amount(res, v) {
    if (res === 'cpu') return v >= 1000 ? +(v / 1000).toFixed(2) + (v === 1000 ? ' core' : ' cores') : v + 'm';
    var gib = v / 1073741824;
    return gib >= 1 ? gib.toFixed(gib % 1 ? 1 : 0) + ' GiB' : (v / 1048576).toFixed(0) + ' MiB';
  }
  function ratioOf(n) { var a = n.allocatable[resource]; return a > 0 ? n.requested[resource] / a : 0; }
  function percentOf(n) { return Math.round(ratioOf(n) * 100); }
  function heat(r) { return 'hsl(' + Math.round(120 - 120 * Math.min(r, 1)) + ', 62%, 36%)'; }
  function zoneName(z) { return z === '' ? '(no zone)' : z; }
  function resultOf(run, pod) { for (var i = 0; i < run.pods.length; i++) if (run.pods[i].pod === pod) return run.pods[i]; return null; }
  function isPending(p) { return p.node === null; }

  function select(runIndex, key, value) {
    selections[runIndex][key] = selections[runIndex][key] === value && key === 'node' ? null : value;
    render();
  }

  function podButton(runIndex, run, pod, label) {
    if (!resultOf(run, pod)) return el('span', {}, [pod, ' (running before the simulation)']);
    return el('button', { type: 'button', className: 'pod-link', 'aria-label': label + ' ' + pod, onclick: function () { select(runIndex, 'pod', pod); } }, [pod]);
  }

  function nodeCell(runIndex, run, n) {
    var pct = percentOf(n);
    var expanded = selections[runIndex].node === n.name;
    return el('button', {
      type: 'button',
      className: 'node-cell' + (n.unschedulable ? ' cordoned' : ''),
      style: 'background:' + heat(ratioOf(n)),
      'aria-label': 'Node ' + n.name + ', ' + resource + ' ' + pct + '% requested' + (n.unschedulable ? ', cordoned' : ''),
      'aria-expanded': expanded ? 'true' : 'false',
      'data-node': n.name,
      'data-value': pct,
      title: n.pods.length ? n.pods.slice(0, 25).join('\n') + (n.pods.length > 25 ? '\n\u2026' : '') : 'no pods',
      onclick: function () { select(runIndex, 'node', n.name); },
    }, [
      el('span', { className: 'name' }, [n.name]),
      el('span', { className: 'value' }, [pct + '%']),
      el('span', {}, [amount(resource, n.requested[resource]) + ' / ' + amount(resource, n.allocatable[resource])]),
    ]);
  }

  function zonesView(runIndex, run) {
    var zones = {};
    run.nodes.forEach(function (n) { (zones[n.zone] = zones[n.zone] || []).push(n); });
    return el('div', { className: 'zones' }, Object.keys(zones).sort().map(function (z) {
      var nodes = zones[z];
      var req = 0, alloc = 0;
      nodes.forEach(function (n) { req += n.requested[resource]; alloc += n.allocatable[resource]; });
      return el('section', { className: 'zone', role: 'region', 'aria-label': 'Zone ' + zoneName(z) }, [
        el('h3', {}, [zoneName(z) + ' \u2014 ' + (alloc > 0 ? Math.round((req / alloc) * 100) : 0) + '% ' + resource]),
        el('div', { className: 'cells' }, nodes.map(function (n) { return nodeCell(runIndex, run, n); })),
      ]);
    }));
  }

  function nodePanel(runIndex, run) {
    var name = selections[runIndex].node;
    var n = run.nodes.filter(function (x) { return x.name === name; })[0];
    if (!n) return null;
    return el('section', { className: 'panel', 'aria-label': 'Pods on node ' + n.name }, [
      el('h3', {}, ['Pods on ' + n.name + ' (' + n.pods.length + ')']),
      n.pods.length
        ? el('ul', { className: 'pods' }, n.pods.map(function (p) { return el('li', {}, [podButton(runIndex, run, p, 'Pod')]); }))
        : el('p', {}, ['No pods.']),
    ]);
  }

  function pendingView(runIndex, run) {
    var groups = {}, order = [];
    run.pods.filter(isPending).forEach(function (p) {
      var reason = p.message || p.outcome;
      if (!groups[reason]) { groups[reason] = []; order.push(reason); }
      groups[reason].push(p);
    });
    return el('section', { 'aria-label': 'Pending pods' }, [
      el('h2', {}, ['Pending pods (' + run.pods.filter(isPending).length + ')']),
      order.length ? null : el('p', {}, ['Every pod was scheduled.']),
    ].concat(order.map(function (reason) {
      return el('div', { role: 'group', 'aria-label': 'Reason: ' + reason }, [
        el('p', { className: 'reason' }, [groups[reason].length + ' \u00d7 ' + reason]),
        el('ul', { className: 'pods' }, groups[reason].map(function (p) { return el('li', {}, [podButton(runIndex, run, p.pod, 'Pending pod')]); })),
      ]);
    })));
  }

  function table(label, head, rows) {
    return el('table', { 'aria-label': label }, [
      el('thead', {}, [el('tr', {}, head.map(function (h) { return el('th', { scope: 'col' }, [h]); }))]),
      el('tbody', {}, rows.map(function (r) {
        return el('tr', {}, r.map(function (c) { return el('td', { className: typeof c === 'number' ? 'num' : undefined }, [c]); }));
      })),
    ]);
  }

  function podPanel(runIndex, run) {
    var p = resultOf(run, selections[runIndex].pod);
    if (!p) return null;
    var plugins = [];
    p.scores.forEach(function (s) { Object.keys(s.plugins).forEach(function (k) { if (plugins.indexOf(k) < 0) plugins.push(k); }); });
    plugins.sort();
    var facts = [['Outcome', p.outcome], ['Node', p.node || '<pending>'], ['Priority', String(p.priority)]];
    if (p.nominatedNode) facts.push(['Nominated node', p.nominatedNode]);
    if (p.victims) facts.push(['Preempted', p.victims.join(', ')]);
    return el('section', { className: 'panel', 'aria-label': 'Pod details' }, [
      el('h3', {}, [p.pod]),
      el('dl', {}, facts.reduce(function (acc, f) { return acc.concat([el('dt', {}, [f[0]]), el('dd', {}, [f[1]])]); }, [])),
      p.message ? el('p', { className: 'reason', 'aria-label': 'Scheduling message' }, [p.message]) : null,
      p.devices ? table('Devices of the pod', ['Claim', 'Request', 'Device'], p.devices.map(function (d) {
        return [d.claim, d.request, d.driver + '/' + d.pool + '/' + d.device + (d.adminAccess ? ' (admin access)' : '')];
      })) : null,
      el('h3', {}, ['Filter: nodes that failed (' + (p.failedNodes === undefined ? p.filters.length : p.failedNodes) + ')']),
      table('Filter results', ['Node', 'Plugin', 'Reasons'], p.filters.map(function (f) { return [f.node, f.plugin, f.reasons.join('; ')]; })),
      el('h3', {}, ['Scores of feasible nodes (' + (p.scores.length < p.scoredNodes ? 'best ' + p.scores.length + ' of ' + p.scoredNodes : p.scores.length) + ')']),
      p.scores.length
        ? table('Scores', ['Node', 'Total'].concat(plugins), p.scores.map(function (s) {
            return [s.node, s.total].concat(plugins.map(function (k) { return k in s.plugins ? s.plugins[k] : ''; }));
          }))
        : el('p', {}, ['No node passed the filters, so none was scored.']),
    ]);
  }

  // DRA devices per class: one row per node reaching any of the class's devices, the bar allocated / total.
  // Unavailable free: free devices the allocator gives no request at the release; tainted free: the
  // other free ones only tolerating requests get. A run stored before it was counted has none (blank).
  function devicesView(run) {
    return el('section', { 'aria-label': 'Devices' }, [
      el('h2', {}, ['Devices by class']),
    ].concat(run.devices.map(function (c) {
      var total = 0, allocated = 0;
      c.nodes.forEach(function (n) { total += n.total; allocated += n.allocated; });
      return el('section', { className: 'zone', role: 'region', 'aria-label': 'Device class ' + c.deviceClass }, [
        el('h3', {}, [c.deviceClass + ' \u2014 ' + allocated + ' of ' + total + ' allocated']),
        c.nodes.length
          ? table('Devices of ' + c.deviceClass, ['Node', 'In use', 'Total', 'Allocated', 'Free', 'Unavailable free', 'Tainted free'], c.nodes.map(function (n) {
              return [n.node, el('meter', { min: 0, max: n.total, value: n.allocated, 'aria-label': n.node + ': ' + n.allocated + ' of ' + n.total + ' allocated' }, [n.allocated + '/' + n.total]),
                n.total, n.allocated, n.free, n.unavailableFree == null ? '' : n.unavailableFree, n.taintedFree];
            }))
          : el('p', {}, ['No node reaches a device of this class.']),
      ]);
    })));
  }

  function runView(run, runIndex) {
    var heading = data.runs.length === 2 ? (runIndex === 0 ? 'Before: ' : 'After: ') + run.label : run.label;
    var pending = run.pods.filter(isPending).length;
    return el('section', { 'aria-label': 'Run ' + heading }, [
      el('h2', {}, [heading]),
      el('p', { className: 'summary' }, [
        data.descheduling
          ? run.nodes.length + ' nodes, ' + run.nodes.reduce(function (n, x) { return n + x.pods.length; }, 0) + ' pods bound' +
            (runIndex === 1 ? ', ' + run.pods.length + ' replacements scheduled (' + pending + ' pending)' : '') +
            ' (kube-scheduler ' + run.compatibilityVersion + ')'
          : run.nodes.length + ' nodes, ' + (run.pods.length - pending) + ' pods scheduled, ' + pending + ' pending (kube-scheduler ' + run.compatibilityVersion + ')',
      ]),
      el('p', { className: 'legend' }, ['Heat: ' + resource + ' requested / allocatable per node; green is free, red is full; dashed outline: cordoned. Click a node for its pods.']),
      zonesView(runIndex, run),
      nodePanel(runIndex, run),
      run.devices ? devicesView(run) : null,
      pendingView(runIndex, run),
      podPanel(runIndex, run),
    ]);
  }

  function changesView() {
    var before = {}, after = {}, keys = [];
    function collect(run, into) {
      run.pods.forEach(function (p) { into[p.pod] = p.node; if (keys.indexOf(p.pod) < 0) keys.push(p.pod); });
      run.nodes.forEach(function (n) { n.pods.forEach(function (p) { into[p] = n.name; if (keys.indexOf(p) < 0) keys.push(p); }); });
    }
    collect(data.runs[0], before);
    collect(data.runs[1], after);
    var rows = keys.sort().filter(function (k) { return (before[k] || null) !== (after[k] || null); }).map(function (k) {
      return [k, before[k] || '<pending>', after[k] || '<pending>'];
    });
    return el('section', { 'aria-label': 'Changes' }, [
      el('h2', {}, ['Pods that moved, started or stopped (' + rows.length + ')']),
      rows.length ? table('Moved pods', ['Pod', 'Before', 'After'], rows) : el('p', {}, ['No pod changed node.']),
    ]);
  }

  var FATES = { destroyed: 'destroyed', retained: 'retained (orphaned)', stranded: 'stranded', waiting: 'waiting on a pod' };

  function storageView(storage) {
    var zones = {};
    storage.volumes.forEach(function (v) { (zones[v.zone] = zones[v.zone] || []).push(v); });
    var loss = storage.dataLoss;
    return el('section', { 'aria-label': 'Storage' }, [
      el('h2', {}, ['Volumes per zone (' + storage.volumes.length + ')']),
      el('div', { className: 'zones' }, Object.keys(zones).sort().map(function (z) {
        var list = zones[z];
        return el('section', { className: 'zone', role: 'region', 'aria-label': 'Volumes in zone ' + zoneName(z) }, [
          el('h3', {}, [zoneName(z) + ' \u2014 ' + list.length + (list.length === 1 ? ' volume or claim' : ' volumes or claims')]),
          table('Volumes in ' + zoneName(z), ['Claim', 'Volume', 'Class', 'Capacity', 'Phase', 'Pods'], list.map(function (v) {
            return [v.claim || '<none>', v.volume || '<unbound>', v.storageClass, v.capacity, v.phase, v.pods.join(', ')];
          })),
        ]);
      })),
      loss ? el('h2', {}, ['Data loss (' + loss.length + ')']) : null,
      loss
        ? (loss.length
            ? table('Data loss', ['Fate', 'Volume', 'Claim', 'Class', 'Capacity', 'Zone', 'Policy', 'Why'], loss.map(function (r) {
                return [FATES[r.fate] || r.fate, r.volume, r.claim, r.storageClass, r.capacity, r.zone, r.policy, r.why];
              }))
            : el('p', {}, ['None: no volume was destroyed, orphaned or stranded, and no claim waits on a pod.']))
        : null,
      storage.timeline ? timelineView(storage.timeline) : null,
    ]);
  }

  // The storage timeline as simulate --scenario prints it: per step, phase changes, then events.
  function timelineView(steps) {
    return el('section', { 'aria-label': 'Storage timeline' }, [
      el('h2', {}, ['Storage timeline (' + steps.length + (steps.length === 1 ? ' step)' : ' steps)')]),
      steps.length
        ? el('div', {}, steps.map(function (s) {
            var title = (s.index === null ? '-' : String(s.index)) + '  ' + s.operation;
            return el('section', { role: 'region', 'aria-label': 'Storage step ' + title }, [
              el('h3', {}, [title]),
              s.transitions.length
                ? table('Phase changes, ' + title, ['Object', 'From', 'To'], s.transitions.map(function (t) { return [t.object, t.from, t.to]; }))
                : null,
              s.deferred.length ? el('p', {}, ['Terminating while a pod uses it: ' + s.deferred.join(', ')]) : null,
              s.events.length
                ? table('Events, ' + title, ['Object', 'Type', 'Reason', 'From', 'Message'], s.events.map(function (e) {
                    return [e.object, e.type, e.reason, e.from, e.message];
                  }))
                : null,
            ]);
          }))
        : el('p', {}, ['No step changed a claim or volume.']),
    ]);
  }

  // A descheduling what-if: the evictions, where each pod went, and the figures before -> after.
  var VIOLATION_KINDS = ['taint', 'nodeAffinity', 'podAffinity', 'topologySpread'];
  function pct(ratio) { return (Math.round(ratio * 1000) / 10).toFixed(1) + '%'; }
  function change(before, after) { return before === after ? before : before + ' \u2192 ' + after; }
  function spreadName(c) { return c.namespace + ' ' + (c.selector || '<all>') + ' by ' + c.topologyKey + ' (maxSkew ' + c.maxSkew + ', ' + c.whenUnsatisfiable + ')'; }
  function perDomain(c) { return Object.keys(c.counts).map(function (k) { return k + '=' + c.counts[k]; }).join(' '); }
  function countKind(list, kind) { return list.filter(function (v) { return v.kind === kind; }).length; }
  function evictedTo(e) {
    if (e.outcome === 'lost') return 'lost (no controller recreates a bare pod)';
    if (e.outcome === 'unschedulable') return 'pending: ' + (e.fitError || '');
    return e.newNode + (e.sameNode ? ' (same node)' : '') + (e.scheduledInRound ? ' (round ' + e.scheduledInRound + ')' : '');
  }
  function oscillationText(o) {
    return o.kind === 'evictedAgain'
      ? o.pod + (o.workload ? ' (' + o.workload + ')' : '') + ' evicted in rounds ' + o.rounds.join(', ') + ' from ' + o.nodes.join(', ')
      : o.pod + ' (' + o.workload + ') back on ' + o.nodes[0] + ', which a pod of its workload was evicted from in round ' + o.rounds[0];
  }

  function descheduleView(d) {
    var s = d.summary;
    var zonesBefore = {};
    d.zones.before.forEach(function (z) { zonesBefore[z.zone] = z; });
    var spreadBefore = {};
    d.spread.before.forEach(function (c) { spreadBefore[spreadName(c)] = c; });
    var notes = [];
    d.rounds.forEach(function (r) {
      if (r.skipped) notes.push('Round ' + r.round + ': ' + r.skipped);
      if (r.limits.length) notes.push('Round ' + r.round + ': limits reached: ' + r.limits.join(', '));
      if (r.refused) notes.push('Round ' + r.round + ': ' + r.refused + ' eviction(s) refused by a limit or a PodDisruptionBudget');
      (r.pendingScheduled || []).forEach(function (p) { notes.push('Round ' + r.round + ': ' + p.pod + ', pending before, scheduled on ' + p.node + ' in the room the evictions freed'); });
      (r.preempted || []).forEach(function (p) { notes.push('Round ' + r.round + ': ' + p.pod + ' preempted by ' + p.by); });
    });
    return el('section', { 'aria-label': 'Descheduling' }, [
      el('h2', {}, ['Evictions (' + d.evictions.length + ')']),
      el('p', { className: 'summary' }, [
        s.evicted + ' evicted in ' + s.rounds + ' round(s): ' + s.rescheduled + ' rescheduled, ' + s.unschedulable + ' pending, ' + s.lost + ' lost; ' +
          (d.converged ? 'a further round evicts nothing' : 'the last round still evicted pods'),
      ]),
      d.evictions.length
        ? table('Evictions', ['Round', 'Pod', 'Strategy', 'Reason', 'From', 'To', 'Replacement'], d.evictions.map(function (e) {
            return [String(e.round), e.pod, e.strategy, e.detail ? e.reason + ': ' + e.detail : e.reason, e.oldNode, evictedTo(e), e.replacement || '-'];
          }))
        : el('p', {}, ['The policy evicted no pod.']),
      notes.length ? el('ul', { 'aria-label': 'Rounds' }, notes.map(function (n) { return el('li', {}, [n]); })) : null,
      el('h2', {}, ['Zones before \u2192 after']),
      table('Zones before and after', ['Zone', 'Nodes', 'CPU requested', 'Memory requested', 'Pods'], d.zones.after.map(function (z) {
        var b = zonesBefore[z.zone] || z;
        return [zoneName(z.zone), String(z.nodes), change(pct(b.cpu.ratio), pct(z.cpu.ratio)), change(pct(b.memory.ratio), pct(z.memory.ratio)), change(String(b.pods), String(z.pods))];
      })),
      d.spread.after.length ? el('h2', {}, ['Topology spread before \u2192 after']) : null,
      d.spread.after.length
        ? table('Topology spread before and after', ['Constraint', 'Skew', 'Pods per domain'], d.spread.after.map(function (c) {
            var b = spreadBefore[spreadName(c)] || c;
            return [spreadName(c), change(String(b.skew), String(c.skew)), change(perDomain(b), perDomain(c))];
          }))
        : null,
      el('h2', {}, ['Violations before \u2192 after']),
      table('Violations before and after', ['Kind', 'Before', 'After'], VIOLATION_KINDS.map(function (k) {
        return [k, countKind(d.violations.before, k), countKind(d.violations.after, k)];
      })),
      d.violations.after.length
        ? table('Violations left', ['Pod', 'Node', 'Plugin', 'Reason'], d.violations.after.map(function (v) { return [v.pod, v.node, v.plugin, v.reason]; }))
        : null,
      d.oscillation.length ? el('h2', {}, ['Oscillation (' + d.oscillation.length + ')']) : null,
      d.oscillation.length ? el('ul', { 'aria-label': 'Oscillation' }, d.oscillation.map(function (o) { return el('li', {}, [oscillationText(o)]); })) : null,
    ]);
  }

  // A timeline run: pending pods by queue over time (stacked areas) and the waiting-time histogram.
  var SVG_NS = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, children) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    (children || []).forEach(function (c) { node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return node;
  }
  var QUEUES = [['active', 'activeQ', '#2f7d32'], ['backoff', 'backoffQ', '#e0a100'], ['unschedulable', 'unschedulable pool', '#c62828'], ['gated', 'gated', '#6d6d6d']];
  function clock(sec) {
    var h = Math.floor(sec / 3600), m = Math.floor((sec % 3600) / 60);
    return h > 0 ? h + 'h' + (m ? ('0' + m).slice(-2) : '') : m > 0 ? m + 'm' : sec + 's';
  }
  function pendingChart(d) {
    var W = 720, H = 220, L = 48, B = 24, n = d.t.length;
    var tmax = n > 0 ? Math.max(d.t[n - 1], 1) : 1;
    var totals = d.t.map(function (_, i) { return d.active[i] + d.backoff[i] + d.unschedulable[i] + d.gated[i]; });
    var ymax = Math.max(1, Math.max.apply(null, totals.concat([0])));
    function x(t) { return L + (W - L - 8) * t / tmax; }
    function y(v) { return H - B - (H - B - 8) * v / ymax; }
    var below = d.t.map(function () { return 0; });
    var layers = QUEUES.map(function (q) {
      var top = below.map(function (b, i) { return b + d[q[0]][i]; });
      var pts = d.t.map(function (t, i) { return x(t) + ',' + y(top[i]); });
      var back = d.t.map(function (t, i) { return x(t) + ',' + y(below[i]); }).reverse();
      below = top;
      return svg('polygon', { points: pts.concat(back).join(' '), fill: q[2], 'fill-opacity': 0.8 }, [svg('title', {}, [q[1]])]);
    });
    var ticks = [0, 0.25, 0.5, 0.75, 1].map(function (f) {
      return svg('text', { x: x(f * tmax), y: H - 6, 'text-anchor': 'middle', 'font-size': 11 }, [clock(Math.round(f * tmax))]);
    });
    return svg('svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img', 'aria-label': 'Pending pods by queue over time' }, layers.concat(ticks, [
      svg('text', { x: 4, y: 14, 'font-size': 11 }, [String(ymax)]),
      svg('text', { x: 4, y: H - B, 'font-size': 11 }, ['0']),
    ]));
  }
  function waitHistogram(h) {
    var W = 720, H = 200, B = 24, n = h.count.length, bw = (W - 16) / n;
    var cmax = Math.max(1, Math.max.apply(null, h.count));
    var bars = [];
    h.count.forEach(function (c, i) {
      var bh = (H - B - 20) * c / cmax;
      var label = h.le[i] === null ? '> ' + clock(h.le[i - 1]) : '\u2264 ' + clock(h.le[i]);
      bars.push(svg('rect', { x: 8 + i * bw + 2, y: H - B - bh, width: bw - 4, height: bh, fill: '#1565c0' }, [svg('title', {}, [label + ': ' + c + ' pods'])]));
      bars.push(svg('text', { x: 8 + i * bw + bw / 2, y: H - B - bh - 4, 'text-anchor': 'middle', 'font-size': 11 }, [String(c)]));
      bars.push(svg('text', { x: 8 + i * bw + bw / 2, y: H - 6, 'text-anchor': 'middle', 'font-size': 11 }, [label]));
    });
    return svg('svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img', 'aria-label': 'Waiting time histogram' }, bars);
  }
  function schedulingTimelineView(d) {
    return el('section', { 'aria-label': 'Timeline' }, [
      el('h2', {}, ['Pending pods over time']),
      el('ul', { 'aria-label': 'Queues' }, QUEUES.map(function (q) { return el('li', { style: 'color:' + q[2] }, [q[1]]); })),
      pendingChart(d),
      el('h2', {}, ['Time from arrival to bind']),
      waitHistogram(d.histogram),
      el('ul', { 'aria-label': 'Summary' }, d.summary.map(function (line) { return el('li', {}, [line]); })),
    ]);
  }

  function render() {
    while (root.firstChild) root.removeChild(root.firstChild);
    if (data.timeline) root.appendChild(schedulingTimelineView(data.timeline));
    if (data.descheduling) root.appendChild(descheduleView(data.descheduling));
    else if (data.runs.length === 2) root.appendChild(changesView());
    root.appendChild(el('div', { className: 'runs' }, data.runs.map(runView)));
    if (data.storage) root.appendChild(storageView(data.storage));
  }

  Array.prototype.forEach.call(document.querySelectorAll('[data-resource]'), function (b) {
    b.addEventListener('click', function () {
      resource = b.getAttribute('data-resource');
      Array.prototype.forEach.call(document.querySelectorAll('[data-resource]'), function (o) { o.setAttribute('aria-pressed', o === b ? 'true' : 'false'); });
      render();
    });
  });
  render();
})();
`;
