#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check Documentation/netlink/specs/wormcast.yaml against the code that
declares the wormcast netlink interface by hand, and fail on any drift.
Prints TAP.  Documentation/uapi.rst ("The spec") says what is compared.

  tests/netlink-spec.py            every check, then the self-test
  tests/netlink-spec.py -v         also print what each check compared

The C sources are read with regular expressions, and only in the forms
listed below; anything else in the places read is a failure ("cannot
parse"), never skipped:

  uapi header   enum [NAME] { A, B = EXPR, ... };   #define NAME VALUE
                struct NAME { __uN field; __uN field[EXPR]; __uN flex[]; };
                (integer #defines are compared by value)
  policies      static const struct nla_policy NAME[PREFIX_MAX + 1] = {
                  [ATTR] = { .type = NLA_T[, .len = EXPR]
                             [, .reject_message = "..."] },
                  [ATTR] = NLA_POLICY_{RANGE,MIN,MAX}(NLA_T, ...),
                  [ATTR] = NLA_POLICY_FULL_RANGE(NLA_T, &NAME),  (NAME a
                           static [const] struct netlink_range_validation
                           of the same file: { .min = EXPR, .max = EXPR })
                  [ATTR] = NLA_POLICY_{NESTED,EXACT_LEN,MIN_LEN}(...),
                  [ATTR] = MACRO,   (a #define of the same file, one of
                                     the forms above)
                };
  genl ops      static const struct genl_[small_]ops NAME[] = {
                  { .cmd = C, .doit = F, .start = F, .dumpit = F,
                    .done = F, .flags = FLAGS, .validate = FLAGS }, ... };
                (.start and .done: the spec's dump pre and post)
  family        struct genl_family: .name .version .maxattr .policy
                .mcgrps; struct rtnl_link_ops: .maxtype .policy
  puts          nla_put_{u8,u16,u32,u64_64bit,s32,string,flag}(skb, ATTR,
                nla_put(skb, ATTR, nla_nest_start(skb, ATTR,
                wc_put_counters(skb, ATTR, wc_put_u64s(skb, ATTR,
  daemon        libnl policies (form above, libnl types), nla_get_T(tb[ATTR])
  wormctl       case ATTR: ... break; in a switch on mnl_attr_get_type()
                (decoders attr_u32, attr_u64, attr_str, attr_u32_array,
                attr_u64_nest, attr_bytes, decode_params, decode_*, a
                length test against sizeof, or a flag set to true);
                mnl_attr_put_T(nlh, ATTR, mnl_attr_nest_start(nlh, ATTR
  iproute2      addattr{8,16,32,64,_l}(n, MAX, ATTR, get_u{8,32}(tb, ATTR,
                and the wc_params[] table of tools/common/wc_params.h

Integers are compared by width where userspace decodes them (libnl and
libmnl check lengths, not signs); kernel policies by exact type.
"""
import copy
import os
import re
import sys

try:
    import yaml
except ImportError:
    print('not ok 1 - PyYAML missing (python3-yaml; run \'make deps\')')
    print('1..1')
    sys.exit(1)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
SPEC = 'Documentation/netlink/specs/wormcast.yaml'
UAPI = 'uapi/linux/wormcast.h'
GENL = 'kmod/genl.c'
LINK = 'kmod/link.c'
KPARAMS = 'kmod/params.c'
DAEMON = 'daemon/wormcastd.c'
WCTL_DIR = 'tools/wormctl'
WCTL_FABRIC = 'tools/wormctl/fabric.c'
IPROUTE = 'tools/iproute2/link_wormcast.c'
PARAMS_H = 'tools/common/wc_params.h'
# Headers whose #defines may appear in policy expressions.
DEFINE_HDRS = ['kmod/wormcast.h', 'kmod/engine/topology.h']
# Kernel and libc constants used in the policies (not in the tree).
KNOWN = {'IFNAMSIZ': 16, 'ETH_ALEN': 6}
SIZEOF = {'u8': 1, 'u16': 2, 'u32': 4, 'u64': 8, 's32': 4, 's64': 8,
          'uint8_t': 1, 'uint16_t': 2, 'uint32_t': 4, 'uint64_t': 8}

INT_TYPES = {'u8': 1, 'u16': 2, 'u32': 4, 'u64': 8,
             's8': 1, 's16': 2, 's32': 4, 's64': 8}


class ParseError(Exception):
    pass


def c_upper(s):
    return s.upper().replace('-', '_')


def c_lower(s):
    return s.lower().replace('-', '_')


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def split_top(s, sep=','):
    """Split @s at @sep outside (), {}, [] and string literals."""
    out, depth, cur, instr = [], 0, '', False
    i = 0
    while i < len(s):
        ch = s[i]
        if instr:
            cur += ch
            if ch == '\\':
                cur += s[i + 1]
                i += 1
            elif ch == '"':
                instr = False
        elif ch == '"':
            instr = True
            cur += ch
        elif ch in '({[':
            depth += 1
            cur += ch
        elif ch in ')}]':
            depth -= 1
            cur += ch
        elif ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


# ------------------------------------------------------------- the spec

SCHEMA_KEYS = {
    'top': {'name', 'doc', 'protocol', 'uapi-header', 'c-family-name', 'c-version-name',
            'max-by-define', 'kernel-policy', 'version', 'definitions', 'attribute-sets',
            'operations', 'mcast-groups'},
    'definition': {'name', 'header', 'type', 'doc', 'value', 'value-start', 'entries',
                   'render-max', 'enum-name', 'name-prefix', 'members'},
    'entry': {'name', 'value', 'doc'},
    'set': {'name', 'name-prefix', 'enum-name', 'doc', 'subset-of', 'attr-cnt-name',
            'attr-max-name', 'attributes'},
    'attr': {'name', 'type', 'doc', 'value', 'type-value', 'byte-order', 'multi-attr',
             'nested-attributes', 'enum', 'enum-as-flags', 'checks', 'sub-type',
             'display-hint', 'name-prefix', 'struct'},
    'checks': {'flags-mask', 'min', 'max', 'min-len', 'max-len', 'exact-len',
               'unterminated-ok'},
    'operations': {'enum-model', 'name-prefix', 'enum-name', 'async-prefix', 'async-enum',
                   'fixed-header', 'list'},
    'op': {'name', 'doc', 'value', 'attribute-set', 'flags', 'dont-validate', 'fixed-header',
           'do', 'dump', 'notify', 'event', 'mcgrp'},
    'subop': {'request', 'reply', 'pre', 'post'},
    'msg': {'attributes', 'value'},
    'mcgrp': {'name', 'c-define-name', 'flags'},
}
ATTR_TYPES = {'unused', 'pad', 'flag', 'binary', 'bitfield32', 'uint', 'sint', 'u8', 'u16',
              'u32', 'u64', 's32', 's64', 'string', 'nest', 'array-nest', 'nest-type-value'}


class Spec:
    """The spec with its derived C names."""

    def __init__(self, d):
        self.d = d
        self.family = d['name']
        self.sets = {s['name']: s for s in d.get('attribute-sets', [])}
        self.defs = {x['name']: x for x in d.get('definitions', [])}

    def set_prefix(self, s):
        return c_upper(s.get('name-prefix', '%s-%s-a-' % (self.family, s['name'])))

    def real_sets(self):
        return [s for s in self.d.get('attribute-sets', []) if 'subset-of' not in s]

    def attrs(self, set_name):
        """Full attribute dicts of a set or subset."""
        s = self.sets[set_name]
        if 'subset-of' in s:
            parent = {a['name']: a for a in self.sets[s['subset-of']]['attributes']}
            return [parent[a['name']] for a in s['attributes']]
        return s['attributes']

    def attr(self, set_name, name):
        for a in self.attrs(set_name):
            if a['name'] == name:
                return a
        return None

    def writable(self, set_name):
        """Names accepted from userspace, or None: no kernel policy."""
        w = self.sets.get(set_name + '-writable')
        if w is None:
            return None
        return [a['name'] for a in w['attributes']]

    def set_by_prefix(self, cprefix):
        for s in self.real_sets():
            if self.set_prefix(s) == cprefix:
                return s
        return None

    def resolve(self, cname):
        """C name -> (set name, attribute) for attribute constants."""
        best = None
        for s in self.real_sets():
            p = self.set_prefix(s)
            if cname.startswith(p) and (best is None or len(p) > len(best[0])):
                best = (p, s)
        if best is None:
            return None
        name = cname[len(best[0]):].lower().replace('_', '-')
        a = None
        for x in best[1]['attributes']:
            if x['name'] == name:
                a = x
        return (best[1]['name'], a, name)

    def ops(self):
        return self.d.get('operations', {}).get('list', [])

    def op_prefix(self):
        return c_upper(self.d['operations'].get('name-prefix', self.family + '-cmd-'))


def check_schema(sp, src=None):
    """Keys and values the genetlink-legacy schema allows, and references."""
    errs = []
    d = sp.d

    def keys(obj, kind, where):
        if not isinstance(obj, dict):
            errs.append('%s: not a mapping' % where)
            return
        for k in obj:
            if k not in SCHEMA_KEYS[kind]:
                errs.append('%s: key "%s" is not in the genetlink-legacy schema' % (where, k))

    keys(d, 'top', 'top level')
    for k in ('name', 'doc', 'attribute-sets', 'operations'):
        if k not in d:
            errs.append('top level: "%s" is required' % k)
    if d.get('protocol') != 'genetlink-legacy':
        errs.append('protocol must be genetlink-legacy')
    for x in d.get('definitions', []):
        keys(x, 'definition', 'definition %s' % x.get('name'))
        if x.get('type') not in ('const', 'enum', 'flags', 'struct'):
            errs.append('definition %s: bad type %r' % (x.get('name'), x.get('type')))
        for e in x.get('entries', []):
            if isinstance(e, dict):
                keys(e, 'entry', 'definition %s entry' % x.get('name'))
    for s in d.get('attribute-sets', []):
        keys(s, 'set', 'set %s' % s.get('name'))
        if 'subset-of' in s:
            if s['subset-of'] not in sp.sets:
                errs.append('set %s: subset of unknown %s' % (s['name'], s['subset-of']))
                continue
            parent = {a['name'] for a in sp.sets[s['subset-of']]['attributes']}
            for a in s['attributes']:
                keys(a, 'attr', 'set %s' % s['name'])
                if a['name'] not in parent:
                    errs.append('set %s: %s is not in %s' % (s['name'], a['name'], s['subset-of']))
            continue
        seen = set()
        for a in s.get('attributes', []):
            where = 'set %s attr %s' % (s['name'], a.get('name'))
            keys(a, 'attr', where)
            if a.get('name') in seen:
                errs.append('%s: twice' % where)
            seen.add(a.get('name'))
            if a.get('type') not in ATTR_TYPES:
                errs.append('%s: bad type %r' % (where, a.get('type')))
            if 'checks' in a:
                keys(a['checks'], 'checks', where + ' checks')
            if a.get('type') == 'nest' and a.get('nested-attributes') not in sp.sets:
                errs.append('%s: nested-attributes %r unknown' % (where, a.get('nested-attributes')))
            if 'enum' in a and a['enum'] not in sp.defs:
                errs.append('%s: enum %r unknown' % (where, a['enum']))
            if a.get('sub-type') and a['sub-type'] not in ATTR_TYPES:
                errs.append('%s: bad sub-type' % where)
    ops = d.get('operations', {})
    keys(ops, 'operations', 'operations')
    groups = [g.get('name') for g in d.get('mcast-groups', {}).get('list', [])]
    for g in d.get('mcast-groups', {}).get('list', []):
        keys(g, 'mcgrp', 'mcast group %s' % g.get('name'))
    for op in ops.get('list', []):
        where = 'op %s' % op.get('name')
        keys(op, 'op', where)
        for k in ('name', 'doc'):
            if k not in op:
                errs.append('%s: "%s" is required' % (where, k))
        aset = op.get('attribute-set')
        if aset not in sp.sets:
            errs.append('%s: attribute-set %r unknown' % (where, aset))
            continue
        for f in op.get('flags', []):
            if f not in ('admin-perm', 'uns-admin-perm'):
                errs.append('%s: bad flag %r' % (where, f))
        msgs = []
        for kind in ('do', 'dump'):
            if kind in op:
                keys(op[kind], 'subop', '%s %s' % (where, kind))
                for m in ('request', 'reply'):
                    if m in op[kind]:
                        keys(op[kind][m], 'msg', '%s %s %s' % (where, kind, m))
                        msgs.append(op[kind][m].get('attributes', []))
        if 'event' in op:
            msgs.append(op['event'].get('attributes', []))
        for lst in msgs:
            for n in lst:
                if sp.attr(aset, n) is None:
                    errs.append('%s: attribute %s is not in %s' % (where, n, aset))
        if 'mcgrp' in op and op['mcgrp'] not in groups:
            errs.append('%s: mcgrp %r unknown' % (where, op['mcgrp']))
        if ('event' in op or 'notify' in op) != ('mcgrp' in op):
            errs.append('%s: a notification needs event/notify and mcgrp together' % where)
    # The -writable convention (see the spec's header comment).
    for s in sp.real_sets():
        w = sp.writable(s['name'])
        for a in s['attributes']:
            if a.get('checks') and (w is None or a['name'] not in w):
                errs.append('set %s attr %s: checks on an attribute the kernel never accepts'
                            % (s['name'], a['name']))
    fam_sets = {op.get('attribute-set') for op in ops.get('list', [])}
    for fs in fam_sets:
        req = set()
        for op in ops.get('list', []):
            for kind in ('do', 'dump'):
                req |= set(op.get(kind, {}).get('request', {}).get('attributes', []))
        w = sp.writable(fs)
        if w is None or set(w) != req:
            errs.append('set %s-writable must list exactly the request attributes %s'
                        % (fs, sorted(req)))
    return errs


# ------------------------------------------------------------- uapi header

def parse_header(text):
    """(enums, defines): enums is a list of (name or None, [(member, value)])
    with values evaluated; defines maps name -> raw value string."""
    t = strip_comments(text)
    defines = {}
    for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+(\w+)(?:[ \t]+([^\n]*))?$', t, re.M):
        defines[m.group(1)] = (m.group(2) or '').strip()
    enums = []
    values = {}
    for m in re.finditer(r'\benum\b\s*(\w*)\s*\{(.*?)\}\s*;', t, re.S):
        members = []
        cur = -1
        for item in split_top(m.group(2)):
            mm = re.fullmatch(r'(\w+)(?:\s*=\s*(.+))?', item, re.S)
            if not mm:
                raise ParseError('%s: cannot parse enum member %r' % (UAPI, item))
            if mm.group(2) is not None:
                cur = eval_c(mm.group(2), values)
            else:
                cur += 1
            values[mm.group(1)] = cur
            members.append((mm.group(1), cur))
        enums.append((m.group(1) or None, members))
    # Anything that looks like an enum but was not matched is a failure.
    if len(re.findall(r'\benum\b', t)) != len(enums):
        raise ParseError('%s: an enum in a form this checker cannot parse' % UAPI)
    return enums, defines


def eval_c(expr, values):
    """Evaluate a C integer constant expression over known names."""
    e = expr.strip()
    e = re.sub(r'sizeof\s*\(\s*(\w+)\s*\)',
               lambda m: str(SIZEOF[m.group(1)]) if m.group(1) in SIZEOF else m.group(0), e)
    e = re.sub(r'\b0[xX]([0-9a-fA-F]+)[uUlL]*\b', lambda m: str(int(m.group(1), 16)), e)
    e = re.sub(r'\b(\d+)[uUlL]+\b', r'\1', e)

    def name(m):
        n = m.group(0)
        if n in values:
            return '(%d)' % values[n]
        if n in KNOWN:
            return str(KNOWN[n])
        raise ParseError('cannot evaluate %r: unknown name %s' % (expr, n))
    e = re.sub(r'\b[A-Za-z_]\w*\b', name, e)
    if not re.fullmatch(r'[\d\s()+\-*/<>|&~]+', e):
        raise ParseError('cannot evaluate %r' % expr)
    return int(eval(e.replace('/', '//')))  # digits and operators only


def expected_header(sp):
    """What the spec says the header holds: enums and defines."""
    d = sp.d
    enums = []
    defines = {}
    for x in d.get('definitions', []):
        if 'header' in x:
            continue
        if x['type'] == 'const':
            pfx = x.get('name-prefix', sp.family + '-')
            defines[c_upper(pfx + x['name'])] = str(x['value'])
        elif x['type'] == 'enum':
            pfx = c_upper(x.get('name-prefix', '%s-%s-' % (sp.family, x['name'])))
            ename = x.get('enum-name', '%s-%s' % (sp.family, x['name']))
            v = x.get('value-start', 0)
            members = []
            for e in x['entries']:
                if isinstance(e, dict):
                    v = e.get('value', v)
                    n = e['name']
                else:
                    n = e
                members.append((pfx + c_upper(n), v))
                v += 1
            if x.get('render-max'):
                members.append(('__' + pfx + 'MAX', v))
            enums.append((c_lower(ename) if ename else None, members))
    for s in sp.real_sets():
        pfx = sp.set_prefix(s)
        v = 1
        members = []
        for a in s['attributes']:
            v = a.get('value', v)
            members.append((pfx + c_upper(a['name']), v))
            v += 1
        cnt = c_upper(s.get('attr-cnt-name', '__' + pfx + 'MAX'))
        members.append((cnt, v))
        if d.get('max-by-define'):
            defines[c_upper(s.get('attr-max-name', pfx + 'MAX'))] = '(%s - 1)' % cnt
        enums.append((c_lower(s['enum-name']) if s.get('enum-name') else None, members))
    ops = d['operations']
    pfx = sp.op_prefix()
    members = [(pfx + 'UNSPEC', 0)]
    v = 1
    for op in ops['list']:
        v = op.get('value', v)
        members.append((pfx + c_upper(op['name']), v))
        v += 1
    members.append(('__' + pfx + 'MAX', v))
    if d.get('max-by-define'):
        defines[pfx + 'MAX'] = '(__%sMAX - 1)' % pfx
    enums.append((c_lower(ops['enum-name']) if ops.get('enum-name') else None, members))
    defines[c_upper(d.get('c-family-name', sp.family + '-family-name'))] = '"%s"' % sp.family
    defines[c_upper(d.get('c-version-name', sp.family + '-family-version'))] = str(d.get('version', 1))
    for g in d.get('mcast-groups', {}).get('list', []):
        defines[c_upper(g.get('c-define-name', '%s-mcgrp-%s' % (sp.family, g['name'])))] = \
            '"%s"' % g['name']
    return enums, defines


def check_header(sp, src):
    errs = []
    enums, defines = parse_header(src[UAPI])
    exp_enums, exp_defines = expected_header(sp)

    def key(e):
        return e[0] or 'anonymous enum starting ' + (e[1][0][0] if e[1] else '?')
    have = {key(e): e[1] for e in enums}
    want = {key(e): e[1] for e in exp_enums}
    for k in want:
        if k not in have:
            errs.append('header lacks enum %s' % k)
            continue
        if have[k] != want[k]:
            hn, wn = dict(have[k]), dict(want[k])
            for n, v in want[k]:
                if n not in hn:
                    errs.append('enum %s: %s (= %d) missing in the header' % (k, n, v))
                elif hn[n] != v:
                    errs.append('enum %s: %s is %d in the header, %d in the spec' % (k, n, hn[n], v))
            for n, v in have[k]:
                if n not in wn:
                    errs.append('enum %s: %s is in the header, not in the spec' % (k, n))
            if [n for n, _ in have[k]] != [n for n, _ in want[k]] and not errs:
                errs.append('enum %s: order differs' % k)
    for k in have:
        if k not in want:
            errs.append('header enum %s is not in the spec' % k)
    guard = [n for n, v in defines.items() if v == '' and n.startswith('_UAPI')]
    values = {n: v for _, members in enums for n, v in members}
    for n, v in exp_defines.items():
        if n not in defines:
            errs.append('header lacks #define %s' % n)
        elif re.sub(r'\s+', '', defines[n]) != re.sub(r'\s+', '', v) and \
                not same_value(defines[n], v, values):
            errs.append('#define %s is %s in the header, %s per the spec' % (n, defines[n], v))
    for n in defines:
        if n not in exp_defines and n not in guard:
            errs.append('header #define %s is not in the spec' % n)
    errs += check_structs(sp, src[UAPI], dict(values, **header_defines(defines, values)))
    return errs


def same_value(a, b, values):
    """Two C integer expressions of the same value (strings never)."""
    try:
        return eval_c(a, values) == eval_c(b, values)
    except ParseError:
        return False


def header_defines(defines, values):
    """The integer #defines of the header, evaluated where possible."""
    out = {}
    for _ in range(3):      # defines may use defines
        for n, v in defines.items():
            if n in out or not v or v.startswith('"'):
                continue
            try:
                out[n] = eval_c(v, dict(values, **out))
            except ParseError:
                pass
    return out


C_INT = {'__u8': ('u8', 1), '__u16': ('u16', 2), '__u32': ('u32', 4), '__u64': ('u64', 8),
         '__s8': ('s8', 1), '__s16': ('s16', 2), '__s32': ('s32', 4), '__s64': ('s64', 8)}


def check_structs(sp, text, values):
    """struct definitions of the spec against the header's structs: the
    same members in the same order, a scalar of the same type, or an
    array of the same size for a binary member with len; a flexible array
    may end the header's struct (the spec's doc describes it)."""
    errs = []
    t = strip_comments(text)
    have = {}
    for m in re.finditer(r'\bstruct\s+(\w+)\s*\{(.*?)\}\s*;', t, re.S):
        members = []
        for item in [x.strip() for x in m.group(2).split(';') if x.strip()]:
            mm = re.fullmatch(r'(__[us](?:8|16|32|64))\s+(\w+)\s*(?:\[\s*([^\]]*)\])?', item, re.S)
            if not mm:
                raise ParseError('%s: struct %s: cannot parse member %r' % (UAPI, m.group(1), item))
            typ, size = C_INT[mm.group(1)]
            if mm.group(3) is None:
                members.append((mm.group(2), typ, None))
            elif mm.group(3) == '':
                members.append((mm.group(2), typ, 'flex'))
            else:
                members.append((mm.group(2), typ, size * eval_c(mm.group(3), values)))
        have[m.group(1)] = members
    want_names = set()
    for x in sp.d.get('definitions', []):
        if x.get('type') != 'struct' or 'header' in x:
            continue
        name = c_lower(sp.family + '-' + x['name'])
        want_names.add(name)
        if name not in have:
            errs.append('header lacks struct %s' % name)
            continue
        hm = list(have[name])
        if hm and hm[-1][2] == 'flex':
            hm.pop()
        if [h[0] for h in hm] != [c_lower(w['name']) for w in x.get('members', [])]:
            errs.append('struct %s: members %s in the header, %s in the spec'
                        % (name, [h[0] for h in hm], [w['name'] for w in x.get('members', [])]))
            continue
        for h, w in zip(hm, x['members']):
            if w['type'] == 'binary':
                if h[2] is None or h[2] != w.get('len'):
                    errs.append('struct %s: %s is %s in the header, %s bytes in the spec'
                                % (name, h[0], '%d bytes' % h[2] if h[2] else h[1], w.get('len')))
            elif h[2] is not None or h[1] != w['type']:
                errs.append('struct %s: %s is %s%s in the header, %s in the spec'
                            % (name, h[0], h[1], ' array' if h[2] else '', w['type']))
    for name in have:
        if name not in want_names:
            errs.append('header struct %s is not in the spec' % name)
    return errs


def header_values(src):
    """Every enumerator and integer #define of the uapi header and of
    DEFINE_HDRS, for evaluating expressions."""
    enums, defines = parse_header(src[UAPI])
    vals = {}
    for _, members in enums:
        vals.update(dict(members))
    vals.update(header_defines(defines, vals))
    for path in DEFINE_HDRS:
        for m in re.finditer(r'^#define[ \t]+(\w+)[ \t]+(\d+)[uU]?\b', strip_comments(src[path]), re.M):
            vals[m.group(1)] = int(m.group(2))
    return vals, defines


# ------------------------------------------------------------- kernel policies

def c_macros(text):
    """#define NAME BODY of a C file (continuation lines joined)."""
    t = strip_comments(text).replace('\\\n', ' ')
    return {m.group(1): m.group(2).strip()
            for m in re.finditer(r'^#define[ \t]+(\w+)[ \t]+([^\n]*)$', t, re.M)}


def parse_policies(text, path, struct='nla_policy', const=True):
    """{policy name: (size name, {attr C name: entry})}."""
    t = strip_comments(text)
    macros = c_macros(text)
    ranges = range_validations(t, path)
    out = {}
    pat = r'static\s+%sstruct\s+%s\s+(\w+)\s*\[\s*(\w+)\s*\+\s*1\s*\]\s*=\s*\{(.*?)\n\};' \
        % ('const\\s+' if const else '(?:const\\s+)?', struct)
    for m in re.finditer(pat, t, re.S):
        entries = {}
        for item in split_top(m.group(3)):
            em = re.fullmatch(r'\[\s*(\w+)\s*\]\s*=\s*(.+)', item, re.S)
            if not em:
                raise ParseError('%s: %s: cannot parse entry %r' % (path, m.group(1), item))
            val = em.group(2).strip()
            if re.fullmatch(r'\w+', val) and val in macros:
                val = macros[val]
            entries[em.group(1)] = parse_policy_value(val, path, em.group(1), ranges)
        out[m.group(1)] = (m.group(2), entries)
    n_decl = len(re.findall(r'struct\s+%s\s+\w+\s*\[' % struct, t))
    if n_decl != len(out):
        raise ParseError('%s: %d struct %s arrays, %d in a form this checker parses'
                         % (path, n_decl, struct, len(out)))
    return out


def range_validations(t, path):
    """{name: (min, max)} of 'static [const] struct netlink_range_validation
    NAME = { .min = EXPR, .max = EXPR };' (@t without comments)."""
    out = {}
    pat = r'static\s+(?:const\s+)?struct\s+netlink_range_validation\s+(\w+)\s*=\s*\{(.*?)\}\s*;'
    for m in re.finditer(pat, t, re.S):
        f = {}
        for item in split_top(m.group(2)):
            fm = re.fullmatch(r'\.(min|max)\s*=\s*(.+)', item, re.S)
            if not fm:
                raise ParseError('%s: %s: cannot parse %r' % (path, m.group(1), item))
            f[fm.group(1)] = fm.group(2).strip()
        out[m.group(1)] = (f.get('min'), f.get('max'))
    if len(re.findall(r'struct\s+netlink_range_validation\s+\w+\s*=', t)) != len(out):
        raise ParseError('%s: a netlink_range_validation in a form this checker cannot parse' % path)
    return out


def parse_policy_value(val, path, attr, ranges=None):
    val = re.sub(r'\s+', ' ', val).strip()
    e = {'type': None, 'len': None, 'min': None, 'max': None, 'nested': None,
         'exact_len': None, 'min_len': None, 'reject_message': None}
    m = re.fullmatch(r'\{(.*)\}', val)
    if m:
        for f in split_top(m.group(1)):
            fm = re.fullmatch(r'\.(\w+) = (.+)', f)
            if not fm or fm.group(1) not in ('type', 'len', 'reject_message'):
                raise ParseError('%s: [%s]: cannot parse field %r' % (path, attr, f))
            e[fm.group(1)] = fm.group(2).strip()
        if e['reject_message'] is not None:
            rm = re.fullmatch(r'"((?:[^"\\]|\\.)*)"', e['reject_message'])
            if not rm:
                raise ParseError('%s: [%s]: reject_message is not a literal' % (path, attr))
            e['reject_message'] = rm.group(1)
        if e['type'] is None:
            raise ParseError('%s: [%s]: no .type' % (path, attr))
        return e
    m = re.fullmatch(r'(NLA_POLICY_\w+)\((.*)\)', val)
    if not m:
        raise ParseError('%s: [%s]: cannot parse policy %r' % (path, attr, val))
    args = split_top(m.group(2))
    macro = m.group(1)
    if macro == 'NLA_POLICY_RANGE' and len(args) == 3:
        e['type'], e['min'], e['max'] = args
    elif macro == 'NLA_POLICY_MAX' and len(args) == 2:
        e['type'], e['max'] = args
    elif macro == 'NLA_POLICY_MIN' and len(args) == 2:
        e['type'], e['min'] = args
    elif macro == 'NLA_POLICY_FULL_RANGE' and len(args) == 2 and \
            re.fullmatch(r'&\s*\w+', args[1]) and args[1].lstrip('& ') in (ranges or {}):
        e['type'] = args[0]
        e['min'], e['max'] = ranges[args[1].lstrip('& ')]
    elif macro == 'NLA_POLICY_NESTED' and len(args) == 1:
        e['type'], e['nested'] = 'NLA_NESTED', args[0]
    elif macro == 'NLA_POLICY_EXACT_LEN' and len(args) == 1:
        e['type'], e['exact_len'] = 'NLA_UNSPEC', args[0]
    elif macro == 'NLA_POLICY_MIN_LEN' and len(args) == 1:
        e['type'], e['min_len'] = 'NLA_UNSPEC', args[0]
    else:
        raise ParseError('%s: [%s]: cannot parse %s(%s)' % (path, attr, macro, m.group(2)))
    return e


def expected_policy_entry(sp, set_name, a, writable):
    """What the kernel policy entry of @a should be, or None (no entry)."""
    t = a['type']
    if t in ('unused', 'pad'):
        return None
    if a['name'] not in writable:
        return {'type': 'NLA_REJECT'}
    ch = a.get('checks', {})
    e = {'type': None, 'len': None, 'min': ch.get('min'), 'max': ch.get('max'),
         'nested': None, 'exact_len': ch.get('exact-len'), 'min_len': ch.get('min-len')}
    if t in INT_TYPES:
        e['type'] = 'NLA_' + t.upper()
    elif t == 'flag':
        e['type'] = 'NLA_FLAG'
    elif t == 'string':
        e['type'] = 'NLA_STRING' if ch.get('unterminated-ok') else 'NLA_NUL_STRING'
        e['len'] = ch.get('max-len')
    elif t == 'binary':
        if ch.get('exact-len') is not None or ch.get('min-len') is not None:
            e['type'] = 'NLA_UNSPEC'
        else:
            e['type'] = 'NLA_BINARY'
            e['len'] = ch.get('max-len')
    elif t == 'nest':
        e['type'] = 'NLA_NESTED'
        e['nested'] = a['nested-attributes']
    else:
        e['type'] = '?' + t
    return e


def check_policy(sp, set_name, pname, entries, vals, policies, path):
    """Compare one kernel policy with a spec set."""
    errs = []
    writable = sp.writable(set_name)
    if writable is None:
        return ['%s: %s validates set %s, which has no %s-writable subset'
                % (path, pname, set_name, set_name)]
    pfx = sp.set_prefix(sp.sets[set_name])
    seen = set()
    for a in sp.sets[set_name]['attributes']:
        cname = pfx + c_upper(a['name'])
        seen.add(cname)
        want = expected_policy_entry(sp, set_name, a, writable)
        have = entries.get(cname)
        where = '%s: %s[%s]' % (path, pname, cname)
        if want is None:
            if have is not None:
                errs.append('%s: present, but the spec says %s' % (where, a['type']))
            continue
        if have is None:
            errs.append('%s: missing (spec: %s%s)' % (where, a['type'],
                        ', writable' if a['name'] in writable else ', read-only'))
            continue
        if want['type'] == 'NLA_REJECT':
            if have['type'] != 'NLA_REJECT':
                errs.append('%s: %s, but the spec says read-only (NLA_REJECT)' % (where, have['type']))
            elif not have['reject_message']:
                errs.append('%s: NLA_REJECT without a reject_message' % where)
            continue
        if have['type'] != want['type']:
            errs.append('%s: %s, spec says %s (%s)' % (where, have['type'], want['type'], a['type']))
            continue
        for k, sk in (('len', 'max-len'), ('min', 'min'), ('max', 'max'),
                      ('exact_len', 'exact-len'), ('min_len', 'min-len')):
            hv = None if have[k] is None else eval_c(have[k], vals)
            wv = want[k]
            if isinstance(wv, str):
                wv = eval_c(wv, vals)
            if hv != wv:
                errs.append('%s: %s is %s in the kernel, %s in the spec' % (where, sk, hv, wv))
        if want['nested'] is not None:
            target = policies.get(have['nested'])
            if target is None:
                errs.append('%s: nested policy %s not found' % (where, have['nested']))
            else:
                tset = sp.set_by_prefix(target[0][:-len('MAX')])
                if tset is None or tset['name'] != want['nested']:
                    errs.append('%s: nests %s, spec says %s' % (where, have['nested'], want['nested']))
    for cname in entries:
        if cname not in seen:
            errs.append('%s: %s[%s] is not in the spec' % (path, pname, cname))
    return errs


def policy_set(sp, size_name):
    """The spec set a policy of [SIZE + 1] validates."""
    if not size_name.endswith('MAX'):
        return None
    s = sp.set_by_prefix(size_name[:-3])
    return s['name'] if s else None


def struct_init(text, struct, path):
    """{field: value} of the one 'struct STRUCT NAME ... = { ... };'."""
    t = strip_comments(text)
    ms = list(re.finditer(r'\bstruct\s+%s\s+\w+(?:\s+\w+)*\s*=\s*\{(.*?)\n\};' % struct, t, re.S))
    if len(ms) != 1:
        raise ParseError('%s: expected one struct %s initialiser, found %d' % (path, struct, len(ms)))
    out = {}
    for f in split_top(ms[0].group(1)):
        fm = re.fullmatch(r'\.(\w+)\s*=\s*(.+)', f, re.S)
        if not fm:
            raise ParseError('%s: struct %s: cannot parse %r' % (path, struct, f))
        out[fm.group(1)] = re.sub(r'\s+', ' ', fm.group(2)).strip()
    return out


GENL_FLAGS = {'GENL_ADMIN_PERM': 'admin-perm', 'GENL_UNS_ADMIN_PERM': 'uns-admin-perm'}
GENL_VALIDATE = {'GENL_DONT_VALIDATE_STRICT': 'strict', 'GENL_DONT_VALIDATE_DUMP': 'dump',
                 'GENL_DONT_VALIDATE_DUMP_STRICT': 'dump-strict'}


def flag_list(expr, table, where):
    out = []
    for f in re.split(r'\s*\|\s*', expr.strip()):
        if f not in table:
            raise ParseError('%s: cannot parse flag %r' % (where, f))
        out.append(table[f])
    return sorted(out)


def check_kernel(sp, src):
    errs = []
    vals, hdefs = header_values(src)
    # genl policies
    gpol = parse_policies(src[GENL], GENL)
    lpol = parse_policies(src[LINK], LINK)
    for path, pols in ((GENL, gpol), (LINK, lpol)):
        for pname, (size, entries) in pols.items():
            sname = policy_set(sp, size)
            if sname is None:
                errs.append('%s: %s[%s + 1] matches no attribute set of the spec' % (path, pname, size))
                continue
            errs += check_policy(sp, sname, pname, entries, vals, pols, path)
    # every set with a -writable subset has a kernel policy
    validated = {policy_set(sp, size) for pols in (gpol, lpol) for size, _ in pols.values()}
    for s in sp.real_sets():
        if sp.writable(s['name']) is not None and s['name'] not in validated:
            errs.append('set %s has %s-writable but no kernel policy' % (s['name'], s['name']))
    # the family
    fam = struct_init(src[GENL], 'genl_family', GENL)
    d = sp.d
    fam_sets = {op['attribute-set'] for op in sp.ops()}
    if len(fam_sets) != 1:
        errs.append('the operations use several attribute sets: %s' % sorted(fam_sets))
    fset = sp.sets[sorted(fam_sets)[0]]
    want = {'name': c_upper(d['c-family-name']), 'version': c_upper(d['c-version-name']),
            'maxattr': sp.set_prefix(fset) + 'MAX'}
    for k, v in want.items():
        if fam.get(k) != v:
            errs.append('%s: genl_family .%s = %s, spec: %s' % (GENL, k, fam.get(k), v))
    kp = d.get('kernel-policy', 'split')
    if kp == 'global':
        if fam.get('policy') is None or policy_set(sp, gpol.get(fam['policy'], ('',))[0]) != fset['name']:
            errs.append('%s: kernel-policy global, but .policy is %s' % (GENL, fam.get('policy')))
    elif 'policy' in fam:
        errs.append('%s: a family-wide .policy, but the spec says kernel-policy %s' % (GENL, kp))
    # multicast groups
    mg = re.search(r'struct\s+genl_multicast_group\s+(\w+)\[\]\s*=\s*\{(.*?)\n\};',
                   strip_comments(src[GENL]), re.S)
    if not mg or fam.get('mcgrps') != mg.group(1):
        raise ParseError('%s: genl_multicast_group array not found or not the family\'s' % GENL)
    groups = []
    for item in split_top(mg.group(2)):
        im = re.fullmatch(r'(?:\[\s*\w+\s*\]\s*=\s*)?\{\s*\.name\s*=\s*(\w+)\s*,?\s*\}', item)
        if not im:
            raise ParseError('%s: cannot parse multicast group %r' % (GENL, item))
        groups.append(hdefs.get(im.group(1), im.group(1)).strip('"'))
    sgroups = [g['name'] for g in d.get('mcast-groups', {}).get('list', [])]
    if groups != sgroups:
        errs.append('%s: multicast groups %s, spec %s' % (GENL, groups, sgroups))
    # operations
    t = strip_comments(src[GENL])
    mo = re.search(r'struct\s+genl_(?:small_)?ops\s+(\w+)\[\]\s*=\s*\{(.*?)\n\};', t, re.S)
    if not mo or mo.group(1) not in (fam.get('small_ops'), fam.get('ops')):
        raise ParseError('%s: the family\'s ops array not found' % GENL)
    kops = {}
    for item in split_top(mo.group(2)):
        im = re.fullmatch(r'\{(.*)\}', item, re.S)
        if not im:
            raise ParseError('%s: cannot parse op %r' % (GENL, item))
        op = {}
        for f in split_top(im.group(1)):
            fm = re.fullmatch(r'\.(cmd|doit|start|dumpit|done|flags|validate)\s*=\s*(.+)',
                              f, re.S)
            if not fm:
                raise ParseError('%s: op field %r: not one of .cmd .doit .start .dumpit .done '
                                 '.flags .validate' % (GENL, f))
            op[fm.group(1)] = fm.group(2).strip()
        if 'cmd' not in op:
            raise ParseError('%s: op without .cmd' % GENL)
        kops[op['cmd']] = op
    pfx = sp.op_prefix()
    ktext = '\n'.join(strip_comments(src[p]) for p in (GENL, LINK))
    notified = set(re.findall(r'wc_genl_notify\s*\(\s*\w+\s*,\s*(%s\w+)\s*\)' % pfx, ktext))
    # a message of port 0, sequence 0 is a notification
    notified |= set(re.findall(r'genlmsg_put\s*\(\s*\w+\s*,\s*0\s*,\s*0\s*,[^;]*?\b(%s\w+)\s*\)'
                               % pfx, ktext))
    for op in sp.ops():
        cname = pfx + c_upper(op['name'])
        if 'event' in op or 'notify' in op:
            if cname not in notified:
                errs.append('kmod: %s is never sent as a notification (wc_genl_notify() or '
                            'genlmsg_put(msg, 0, 0, ...))' % cname)
            if 'do' not in op and 'dump' not in op:
                if cname in kops:
                    errs.append('%s: %s is a notification in the spec, a request op in the kernel'
                                % (GENL, cname))
                continue
        k = kops.pop(cname, None)
        if k is None:
            errs.append('%s: no op for %s' % (GENL, cname))
            continue
        if ('do' in op) != ('doit' in k):
            errs.append('%s: %s: doit %s in the kernel, do %s in the spec'
                        % (GENL, cname, 'doit' in k, 'do' in op))
        if ('dump' in op) != ('dumpit' in k):
            errs.append('%s: %s: dumpit %s in the kernel, dump %s in the spec'
                        % (GENL, cname, 'dumpit' in k, 'dump' in op))
        for hook, field in (('pre', 'start'), ('post', 'done')):
            want = op.get('dump', {}).get(hook)
            if (want and want.replace('-', '_')) != k.get(field):
                errs.append('%s: %s: .%s %s in the kernel, dump %s %s in the spec'
                            % (GENL, cname, field, k.get(field), hook, want))
        kf = flag_list(k['flags'], GENL_FLAGS, cname) if 'flags' in k else []
        if kf != sorted(op.get('flags', [])):
            errs.append('%s: %s: flags %s, spec %s' % (GENL, cname, kf, op.get('flags', [])))
        kv = flag_list(k['validate'], GENL_VALIDATE, cname) if 'validate' in k else []
        if kv != sorted(op.get('dont-validate', [])):
            errs.append('%s: %s: validate %s, spec dont-validate %s'
                        % (GENL, cname, kv, op.get('dont-validate', [])))
    for cname in kops:
        errs.append('%s: op %s is not in the spec' % (GENL, cname))
    for cname in notified:
        if not any(pfx + c_upper(o['name']) == cname and ('event' in o or 'notify' in o)
                   for o in sp.ops()):
            errs.append('kmod: %s is notified but is no notification in the spec' % cname)
    # link ops
    lops = struct_init(src[LINK], 'rtnl_link_ops', LINK)
    lset = policy_set(sp, lops.get('maxtype', ''))
    if lset is None or policy_set(sp, lpol.get(lops.get('policy'), ('',))[0]) != lset:
        errs.append('%s: rtnl_link_ops .maxtype %s / .policy %s match no spec set'
                    % (LINK, lops.get('maxtype'), lops.get('policy')))
    if c_upper(sp.defs['kind']['value'].strip('"')) != c_upper(sp.family) or \
            lops.get('kind') != c_upper(sp.defs['kind'].get('name-prefix', sp.family + '-') + 'kind'):
        errs.append('%s: rtnl_link_ops .kind is %s' % (LINK, lops.get('kind')))
    # what the kernel puts in replies
    errs += check_puts(sp, src)
    errs += check_kernel_params(sp, src)
    return errs


NLA_PUT = {'NLA_U8': 'u8', 'NLA_U32': 'u32'}


def check_kernel_params(sp, src):
    """kmod/params.c: wc_param_attrs[] pairs every WORMCAST_PARAM_* with the
    IFLA_WORMCAST_* of the same name and the type both are put with."""
    errs = []
    tb = re.search(r'wc_param_attrs\[\]\s*=\s*\{(.*?)\n\};', strip_comments(src[KPARAMS]), re.S)
    if not tb:
        raise ParseError('%s: wc_param_attrs[] not found' % KPARAMS)
    names = []
    pset = None
    for row in split_top(tb.group(1)):
        rm = re.fullmatch(r'\{\s*(\w+)\s*,\s*(\w+)\s*,\s*(NLA_\w+)\s*\}', re.sub(r'\s+', ' ', row))
        if not rm:
            raise ParseError('%s: cannot parse row %r' % (KPARAMS, row))
        rp, ri = sp.resolve(rm.group(1)), sp.resolve(rm.group(2))
        if not rp or not rp[1] or not ri or not ri[1]:
            errs.append('%s: %s or %s not in the spec' % (KPARAMS, rm.group(1), rm.group(2)))
            continue
        pset = rp[0]
        names.append(rp[1]['name'])
        if rp[1]['name'] != ri[1]['name']:
            errs.append('%s: pairs %s with %s' % (KPARAMS, rm.group(1), rm.group(2)))
        for r in (rp, ri):
            if NLA_PUT.get(rm.group(3)) != r[1]['type']:
                errs.append('%s: puts %s as %s, spec says %s'
                            % (KPARAMS, r[1]['name'], rm.group(3), r[1]['type']))
    if pset:
        want = [a['name'] for a in sp.attrs(pset) if a['type'] not in ('unused', 'pad')]
        if names != want:
            errs.append('%s: wc_param_attrs[] rows %s, spec set %s %s' % (KPARAMS, names, pset, want))
    return errs


PUT_TYPES = {'u8': {'u8'}, 'u16': {'u16'}, 'u32': {'u32'}, 'u64_64bit': {'u64'},
             's32': {'s32'}, 'string': {'string'}, 'flag': {'flag'}, '': {'binary'},
             'nest_start': {'nest'}}


def check_puts(sp, src):
    errs = []
    for path in (GENL, LINK):
        t = strip_comments(src[path])
        for m in re.finditer(r'\bnla_(put(?:_(\w+))?|nest_start)\s*\(\s*\w+\s*,\s*([A-Z]\w*)\b', t):
            kind = 'nest_start' if m.group(1) == 'nest_start' else (m.group(2) or '')
            r = sp.resolve(m.group(3))
            if kind not in PUT_TYPES:
                errs.append('%s: cannot classify nla_%s' % (path, m.group(1)))
                continue
            if r is None or r[1] is None:
                errs.append('%s: puts %s, which is not in the spec' % (path, m.group(3)))
                continue
            if r[1]['type'] not in PUT_TYPES[kind]:
                errs.append('%s: puts %s with nla_%s, spec says %s'
                            % (path, m.group(3), m.group(1), r[1]['type']))
        for m in re.finditer(r'\bwc_put_(?:u64s|counters)\s*\(\s*\w+\s*,\s*(\w+)\b', t):
            if m.group(1) == 'type':
                continue    # the helper's own parameter
            r = sp.resolve(m.group(1))
            if r is None or r[1] is None or r[1]['type'] != 'nest' or \
                    any(a['type'] not in ('u64', 'pad', 'unused')
                        for a in sp.attrs(r[1]['nested-attributes'])):
                errs.append('%s: %s is filled with u64 values: the spec must make it a nest of u64'
                            % (path, m.group(1)))
    return errs


# ------------------------------------------------------------- userspace

LIBNL = {'NLA_U8': 'u8', 'NLA_U16': 'u16', 'NLA_U32': 'u32', 'NLA_U64': 'u64',
         'NLA_S8': 's8', 'NLA_S16': 's16', 'NLA_S32': 's32', 'NLA_S64': 's64',
         'NLA_STRING': 'string', 'NLA_NUL_STRING': 'string', 'NLA_NESTED': 'nest',
         'NLA_FLAG': 'flag', 'NLA_BINARY': 'binary', 'NLA_UNSPEC': 'any'}


def compatible(spec_type, user_type):
    if user_type == 'any':
        return True
    if spec_type in INT_TYPES and user_type in INT_TYPES:
        return INT_TYPES[spec_type] == INT_TYPES[user_type]
    return spec_type == user_type


def check_daemon(sp, src):
    errs = []
    pols = parse_policies(src[DAEMON], DAEMON, const=False)
    if not pols:
        errs.append('%s: no libnl policy found' % DAEMON)
    for pname, (size, entries) in pols.items():
        sname = policy_set(sp, size)
        if sname is None:
            errs.append('%s: %s[%s + 1] matches no set of the spec' % (DAEMON, pname, size))
            continue
        for cname, e in entries.items():
            r = sp.resolve(cname)
            if r is None or r[0] != sname or r[1] is None:
                errs.append('%s: %s[%s] is not in set %s' % (DAEMON, pname, cname, sname))
                continue
            if any(e[k] is not None for k in ('len', 'min', 'max', 'nested', 'exact_len', 'min_len')):
                errs.append('%s: %s[%s]: only .type is read here' % (DAEMON, pname, cname))
            ut = LIBNL.get(e['type'])
            if ut is None:
                raise ParseError('%s: %s[%s]: unknown libnl type %s' % (DAEMON, pname, cname, e['type']))
            if not compatible(r[1]['type'], ut):
                errs.append('%s: %s[%s] is %s, spec says %s'
                            % (DAEMON, pname, cname, e['type'], r[1]['type']))
    t = strip_comments(src[DAEMON])
    for m in re.finditer(r'\bnla_get_(\w+)\s*\(\s*tb\s*\[\s*(\w+)\s*\]', t):
        r = sp.resolve(m.group(2))
        if r is None:
            continue        # another family (the controller's)
        if r[1] is None:
            errs.append('%s: reads %s, not in the spec' % (DAEMON, m.group(2)))
        elif not compatible(r[1]['type'], m.group(1)):
            errs.append('%s: reads %s with nla_get_%s, spec says %s'
                        % (DAEMON, m.group(2), m.group(1), r[1]['type']))
    return errs


def c_functions(text):
    """{name: body} of the top-level functions of a C file."""
    t = strip_comments(text)
    out = {}
    for m in re.finditer(r'^(?![\s#])[\w \t\*]*?\b(\w+)\s*\([^;{]*?\)\s*\{', t, re.M):
        depth, i = 1, m.end()
        while depth and i < len(t):
            depth += {'{': 1, '}': -1}.get(t[i], 0)
            i += 1
        out[m.group(1)] = t[m.end():i - 1]
    return out


def function_set(sp, body):
    """The attribute set a decoder function handles."""
    names = set()
    for c in re.findall(r'\bcase\s+(\w+)\s*:', body):
        r = sp.resolve(c)
        if r:
            names.add(r[0])
    if names:
        return names
    for c in re.findall(r'\b__(\w+)MAX\b', body):
        s = sp.set_by_prefix(c)
        if s:
            names.add(s['name'])
    return names


def check_wormctl(sp, src):
    errs = []
    funcs = c_functions(src[WCTL_FABRIC])
    decoders = {}
    for fname, body in funcs.items():
        if fname.startswith('decode_'):
            s = function_set(sp, body)
            if len(s) != 1:
                raise ParseError('%s: %s: cannot tell which attribute set it decodes'
                                 % (WCTL_FABRIC, fname))
            decoders[fname] = s.pop()
    if 'decode_params' in decoders:
        # "replication is a u8, the others u32": a u8 by length, else attr_u32
        body = funcs['decode_params']
        if 'sizeof(uint8_t)' not in body or 'attr_u32(' not in body:
            raise ParseError('%s: decode_params: not the u8-or-u32 form' % WCTL_FABRIC)
        for a in sp.attrs(decoders['decode_params']):
            if a['type'] not in ('u8', 'u32', 'unused'):
                errs.append('%s: decode_params reads u8 or u32, spec %s is %s'
                            % (WCTL_FABRIC, a['name'], a['type']))
    ncases = 0
    for fname, body in funcs.items():
        for sw in re.finditer(r'switch\s*\(\s*mnl_attr_get_type\s*\(\s*\w+\s*\)\s*\)\s*\{', body):
            seg = body[sw.end():]
            for cm in re.finditer(r'\bcase\s+(\w+)\s*:(.*?)\bbreak\s*;', seg, re.S):
                ncases += 1
                errs += check_case(sp, cm.group(1), cm.group(2), decoders, funcs)
    if ncases == 0:
        raise ParseError('%s: no decoder switch found' % WCTL_FABRIC)
    # requests built by wormctl
    for path in sorted(p for p in src if p.startswith(WCTL_DIR + '/')):
        t = strip_comments(src[path])
        for m in re.finditer(r'\bmnl_attr_(put_(\w+)|nest_start)\s*\(\s*\w+\s*,\s*([A-Z]\w*)\b', t):
            r = sp.resolve(m.group(3))
            if r is None:
                continue    # controller or other families
            kind = {'nest_start': 'nest', 'put_str': 'string', 'put_strz': 'string'}.get(
                m.group(1), m.group(2))
            errs += user_put(sp, path, m.group(3), r, kind)
    return errs


def user_put(sp, path, cname, r, kind):
    if r[1] is None:
        return ['%s: sends %s, not in the spec' % (path, cname)]
    errs = []
    if not compatible(r[1]['type'], kind):
        errs.append('%s: sends %s as %s, spec says %s' % (path, cname, kind, r[1]['type']))
    w = sp.writable(r[0])
    if w is not None and r[1]['name'] not in w:
        errs.append('%s: sends %s, read-only per the spec' % (path, cname))
    return errs


def check_case(sp, cname, body, decoders, funcs):
    where = '%s: case %s' % (WCTL_FABRIC, cname)
    r = sp.resolve(cname)
    if r is None or r[1] is None:
        return ['%s: not in the spec' % where]
    a = r[1]
    t = a['type']
    if 'attr_u32_array(' in body:
        ok = t == 'binary' and a.get('sub-type') == 'u32'
        return [] if ok else ['%s: decoded as a u32 array, spec: %s' % (where, t)]
    if 'attr_u64_nest(' in body:
        m = re.search(r'attr_u64_nest\([^;]*__(\w+)MAX\s*\)', body)
        inner = sp.set_by_prefix(m.group(1)) if m else None
        if inner is None:
            raise ParseError('%s: attr_u64_nest without a __*_MAX bound' % where)
        errs = []
        if t != 'nest' or a.get('nested-attributes') != inner['name']:
            errs.append('%s: decoded as a nest of %s, spec: %s %s'
                        % (where, inner['name'], t, a.get('nested-attributes', '')))
        for x in inner['attributes']:
            if x['type'] not in ('u64', 'pad', 'unused'):
                errs.append('%s: attr_u64_nest reads u64, spec %s %s is %s'
                            % (where, inner['name'], x['name'], x['type']))
        return errs
    for fname, sname in decoders.items():
        if re.search(r'\b%s\s*\(' % fname, body):
            if 'mnl_attr_for_each_nested' in body:
                # a nest of nests: "type == X && decode_node(...)"
                im = re.search(r'mnl_attr_get_type\s*\(\s*\w+\s*\)\s*==\s*(\w+)', body)
                ir = sp.resolve(im.group(1)) if im else None
                if not ir or not ir[1]:
                    raise ParseError('%s: cannot parse the inner attribute' % where)
                errs = []
                if t != 'nest' or ir[1]['name'] not in [x['name'] for x in
                                                      sp.attrs(a.get('nested-attributes', a['name']))
                                                      if 'nested-attributes' in a]:
                    errs.append('%s: decoded as a nest of %s, spec: %s' % (where, im.group(1), t))
                inner = sp.sets.get(ir[1].get('nested-attributes'), {})
                if ir[1].get('type') != 'nest' or \
                        sname not in (inner.get('name'), inner.get('subset-of')):
                    errs.append('%s: inner %s decoded by %s (%s), spec: %s'
                                % (where, im.group(1), fname, sname, ir[1].get('nested-attributes')))
                return errs
            inner = sp.sets.get(a.get('nested-attributes'), {})
            if t != 'nest' or sname not in (inner.get('name'), inner.get('subset-of')):
                return ['%s: decoded by %s (set %s), spec: %s %s'
                        % (where, fname, sname, t, a.get('nested-attributes', ''))]
            return []
    if 'attr_u64(' in body:
        return [] if compatible(t, 'u64') else ['%s: decoded as u64, spec: %s' % (where, t)]
    if 'attr_u32(' in body:
        return [] if compatible(t, 'u32') else ['%s: decoded as u32, spec: %s' % (where, t)]
    if 'attr_str(' in body:
        return [] if t == 'string' else ['%s: decoded as a string, spec: %s' % (where, t)]
    if 'attr_bytes(' in body:
        return [] if t == 'binary' else ['%s: decoded as bytes, spec: %s' % (where, t)]
    if re.search(r'mnl_attr_get_payload_len\s*\(\s*\w+\s*\)\s*==\s*sizeof', body):
        return [] if t == 'binary' else ['%s: decoded as fixed-size binary, spec: %s' % (where, t)]
    if re.fullmatch(r'\s*[\w>.-]+\s*=\s*true\s*;\s*', body):
        return [] if t == 'flag' else ['%s: decoded as a flag, spec: %s' % (where, t)]
    raise ParseError('%s: cannot classify the decoder' % where)


def check_iproute(sp, src):
    errs = []
    t = strip_comments(src[IPROUTE])
    n = 0
    for m in re.finditer(r'\baddattr(8|16|32|64|_l)\s*\(\s*\w+\s*,\s*\w+\s*,\s*([\w\[\].]+)', t):
        n += 1
        if m.group(2) == 'wc_params[i].ifla':
            continue    # checked with the table below
        r = sp.resolve(m.group(2))
        if r is None:
            raise ParseError('%s: addattr of %s' % (IPROUTE, m.group(2)))
        kind = 'u' + m.group(1) if m.group(1) != '_l' else None
        if r[1] is None:
            errs.append('%s: sends %s, not in the spec' % (IPROUTE, m.group(2)))
        elif kind is None:
            if r[1]['type'] not in ('binary', 'string'):
                errs.append('%s: sends %s as bytes, spec says %s' % (IPROUTE, m.group(2), r[1]['type']))
            w = sp.writable(r[0])
            if w is not None and r[1]['name'] not in w:
                errs.append('%s: sends %s, read-only per the spec' % (IPROUTE, m.group(2)))
        else:
            errs += user_put(sp, IPROUTE, m.group(2), r, kind)
    for m in re.finditer(r'\bget_u(8|32)\s*\(\s*tb\s*,\s*(\w+)\s*,', t):
        n += 1
        r = sp.resolve(m.group(2))
        if r is None or r[1] is None:
            errs.append('%s: reads %s, not in the spec' % (IPROUTE, m.group(2)))
        elif not compatible(r[1]['type'], 'u' + m.group(1)):
            errs.append('%s: reads %s as u%s, spec says %s'
                        % (IPROUTE, m.group(2), m.group(1), r[1]['type']))
    if not n:
        raise ParseError('%s: no attribute found' % IPROUTE)
    # tools/common/wc_params.h: one row per engine parameter, both families
    tb = re.search(r'wc_params\[\]\s*=\s*\{(.*?)\n\};', strip_comments(src[PARAMS_H]), re.S)
    if not tb:
        raise ParseError('%s: wc_params[] not found' % PARAMS_H)
    rows = split_top(tb.group(1))
    pset = lset = None
    names = []
    for row in rows:
        rm = re.fullmatch(r'\{\s*"([\w-]+)"\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*\w+\s*,\s*(true|false)\s*,'
                          r'\s*"[^"]*"\s*\}', re.sub(r'\s+', ' ', row))
        if not rm:
            raise ParseError('%s: cannot parse row %r' % (PARAMS_H, row))
        ri, rp = sp.resolve(rm.group(2)), sp.resolve(rm.group(3))
        if not ri or not ri[1] or not rp or not rp[1]:
            errs.append('%s: %s: %s or %s not in the spec' % (PARAMS_H, rm.group(1), rm.group(2), rm.group(3)))
            continue
        lset, pset = ri[0], rp[0]
        names.append(rp[1]['name'])
        if ri[1]['name'] != rp[1]['name'] or ri[1]['type'] != rp[1]['type']:
            errs.append('%s: %s pairs %s (%s) with %s (%s)' % (PARAMS_H, rm.group(1), rm.group(2),
                        ri[1]['type'], rm.group(3), rp[1]['type']))
        want = 'u8' if rm.group(4) == 'true' else 'u32'
        if rp[1]['type'] != want:
            errs.append('%s: %s is sent as %s, spec says %s' % (PARAMS_H, rm.group(1), want, rp[1]['type']))
    if pset:
        all_params = [a['name'] for a in sp.attrs(pset) if a['type'] not in ('unused', 'pad')]
        if names != all_params:
            errs.append('%s: wc_params[] rows %s, spec set %s %s' % (PARAMS_H, names, pset, all_params))
        # every engine parameter has the same name and type in the link set
        lattrs = {a['name']: a for a in sp.attrs(lset)}
        for a in sp.attrs(pset):
            if a['type'] in ('unused', 'pad'):
                continue
            la = lattrs.get(a['name'])
            if la is None or la['type'] != a['type'] or la.get('enum') != a.get('enum'):
                errs.append('set %s %s and set %s differ' % (pset, a['name'], lset))
    return errs


# ------------------------------------------------------------- driver

CHECKS = [
    ('spec follows the genetlink-legacy schema and its own conventions', check_schema),
    ('%s: enums, members, values and defines' % UAPI, check_header),
    ('kmod: policies, ops, groups, family, link ops and reply puts', check_kernel),
    ('%s: libnl policy and reads' % DAEMON, check_daemon),
    ('tools/wormctl: decoders and requests', check_wormctl),
    ('iproute2 plugin and tools/common/wc_params.h', check_iproute),
]


def load_sources(root):
    paths = [UAPI, GENL, LINK, KPARAMS, DAEMON, WCTL_FABRIC, IPROUTE, PARAMS_H] + DEFINE_HDRS
    paths += [os.path.join(WCTL_DIR, f) for f in sorted(os.listdir(os.path.join(root, WCTL_DIR)))
              if f.endswith('.c')]
    src = {}
    for p in paths:
        with open(os.path.join(root, p)) as f:
            src[p] = f.read()
    return src


def run_checks(spec_dict, src):
    """[(description, [errors])]; a parse failure is an error."""
    out = []
    sp = Spec(spec_dict)
    for desc, fn in CHECKS:
        try:
            errs = fn(sp, src)
        except ParseError as e:
            errs = ['cannot parse: %s' % e]
        except (KeyError, TypeError, AttributeError, ValueError) as e:
            errs = ['spec or source in an unexpected shape: %s: %s' % (type(e).__name__, e)]
        out.append((desc, list(dict.fromkeys(errs))))
    return out


def _attrs(d, set_name):
    return next(s for s in d['attribute-sets'] if s['name'] == set_name)['attributes']


def _op(d, name):
    return next(o for o in d['operations']['list'] if o['name'] == name)


def _set_attr(d, set_name, attr, key, value):
    next(a for a in _attrs(d, set_name) if a['name'] == attr)[key] = value


def _drop(lst, name):
    lst[:] = [x for x in lst if (x['name'] if isinstance(x, dict) else x) != name]


def _swap(lst, i, j):
    lst[i], lst[j] = lst[j], lst[i]


# Mutations of the spec, each of which must make the checker fail.
SPEC_MUTATIONS = [
    ('drop an attribute (fabric fabric-netnsid)',
     lambda d: _drop(_attrs(d, 'fabric'), 'fabric-netnsid')),
    ('drop a counter in the middle (counters drop-self)',
     lambda d: _drop(_attrs(d, 'counters'), 'drop-self')),
    ('add an attribute (node extra)',
     lambda d: _attrs(d, 'node').append({'name': 'extra', 'type': 'u32'})),
    ('reorder two counters (tx-bytes, rx-frames)',
     lambda d: _swap(_attrs(d, 'counters'), 2, 3)),
    ('reorder two same-typed params (buf-flits, vcs)',
     lambda d: _swap(_attrs(d, 'params'), 2, 3)),
    ('change a type: fabric fabric-ifindex u32 -> u64',
     lambda d: _set_attr(d, 'fabric', 'fabric-ifindex', 'type', 'u64')),
    ('change a type: fabric fabric-netnsid s32 -> u32',
     lambda d: _set_attr(d, 'fabric', 'fabric-netnsid', 'type', 'u32')),
    ('change a type: params replication u8 -> u32',
     lambda d: _set_attr(d, 'params', 'replication', 'type', 'u32')),
    ('change a type: counters tx-frames u64 -> u32',
     lambda d: _set_attr(d, 'counters', 'tx-frames', 'type', 'u32')),
    ('change a type: node address binary -> string',
     lambda d: _set_attr(d, 'node', 'address', 'type', 'string')),
    ('change a check: link topology max 4 -> 3',
     lambda d: _set_attr(d, 'linkinfo-wormcast-attrs', 'topology', 'checks', {'min': 1, 'max': 3})),
    ('change a check: link dims max-len 12 -> 16',
     lambda d: _set_attr(d, 'linkinfo-wormcast-attrs', 'dims', 'checks', {'max-len': 16})),
    ('drop a check: fabric fabric-name max-len',
     lambda d: _set_attr(d, 'fabric', 'fabric-name', 'checks', {})),
    ('make a read-only attribute writable (params queue-len)',
     lambda d: next(s for s in d['attribute-sets'] if s['name'] == 'params-writable')
     ['attributes'].append({'name': 'queue-len'})),
    ('make a writable link attribute read-only (link watchdog)',
     lambda d: _drop(next(s for s in d['attribute-sets']
                          if s['name'] == 'linkinfo-wormcast-attrs-writable')['attributes'],
                     'watchdog')),
    ('drop the dump of stats-get', lambda d: _op(d, 'stats-get').pop('dump')),
    ('drop the permission flag of fabric-set', lambda d: _op(d, 'fabric-set').pop('flags')),
    ('admin-perm instead of uns-admin-perm',
     lambda d: _op(d, 'fabric-set').__setitem__('flags', ['admin-perm'])),
    ('reorder two operations', lambda d: _swap(d['operations']['list'], 3, 4)),
    ('rename an enum entry (topology hypercube -> cube)',
     lambda d: next(x for x in d['definitions'] if x['name'] == 'topology')['entries']
     .__setitem__(3, 'cube')),
    ('role value-start 1 -> 0',
     lambda d: next(x for x in d['definitions'] if x['name'] == 'role').pop('value-start')),
    ('rename the multicast group', lambda d: d['mcast-groups']['list'][0].__setitem__('name', 'ev')),
    ('a key the schema does not know', lambda d: _op(d, 'fabric-get').__setitem__('read-only', True)),
    ('family version 2', lambda d: d.__setitem__('version', 2)),
    ('kernel-policy per-op', lambda d: d.__setitem__('kernel-policy', 'per-op')),
    ('nodes nesting node attributes directly',
     lambda d: _set_attr(d, 'fabric', 'nodes', 'nested-attributes', 'node')),
    ('change a check: fabric table-size max (a full-range policy)',
     lambda d: _set_attr(d, 'fabric', 'table-size', 'checks', {'min': 1, 'max': 65536})),
    ('change a check: fabric table-data max-len 65024 -> 65536',
     lambda d: _set_attr(d, 'fabric', 'table-data', 'checks', {'max-len': 65536})),
    ('change a check: params multicast max 4 -> 5',
     lambda d: _set_attr(d, 'params', 'multicast', 'checks', {'max': 5})),
    ('make a writable param read-only (params multicast)',
     lambda d: _drop(next(s for s in d['attribute-sets'] if s['name'] == 'params-writable')
                     ['attributes'], 'multicast')),
    ('drop the notification of table-commit',
     lambda d: (_op(d, 'table-commit').pop('event'), _op(d, 'table-commit').pop('mcgrp'))),
    ('drop the dump of table-get', lambda d: _op(d, 'table-get').pop('dump')),
    ('drop the dump of links-get', lambda d: _op(d, 'links-get').pop('dump')),
    ('change a type: link busy u64 -> u32',
     lambda d: _set_attr(d, 'link', 'busy', 'type', 'u32')),
    ('reorder two link attributes (busy, blocked)',
     lambda d: _swap(_attrs(d, 'link'), 4, 5)),
    ('drop an enum entry (table-kind trees)',
     lambda d: next(x for x in d['definitions'] if x['name'] == 'table-kind')['entries'].pop()),
    ('change a constant (no-port 255 -> 254)',
     lambda d: next(x for x in d['definitions'] if x['name'] == 'no-port').__setitem__('value', 254)),
    ('change a struct member (trees root len 8 -> 4)',
     lambda d: next(m for m in next(x for x in d['definitions'] if x['name'] == 'trees')['members']
                    if m['name'] == 'root').__setitem__('len', 4)),
    ('drop a struct member (trees nfaults)',
     lambda d: next(x for x in d['definitions'] if x['name'] == 'trees')['members'].pop()),
    ('fabric-del no longer a notification',
     lambda d: (_op(d, 'fabric-del').pop('event'), _op(d, 'fabric-del').pop('mcgrp'),
                _op(d, 'fabric-del').__setitem__('do', {'request': {'attributes': []}}))),
]

# Mutations of the sources (the spec left alone), each of which must fail.
SOURCE_MUTATIONS = [
    ('kernel policy type NLA_U32 -> NLA_U64 (WORMCAST_PARAM_WATCHDOG)', GENL,
     '[WORMCAST_PARAM_WATCHDOG] = { .type = NLA_U32 }',
     '[WORMCAST_PARAM_WATCHDOG] = { .type = NLA_U64 }'),
    ('a policy form the checker cannot parse', LINK,
     '[IFLA_WORMCAST_VCS] = { .type = NLA_U32 }',
     '[IFLA_WORMCAST_VCS] = { .type = NLA_U32, .validation_type = NLA_VALIDATE_MIN }'),
    ('a new uapi enum member', UAPI, '\tWORMCAST_ENG_MEM_BYTES,',
     '\tWORMCAST_ENG_MEM_BYTES,\n\tWORMCAST_ENG_NEW,'),
    ('a wormctl decoder with the wrong width', WCTL_FABRIC,
     'case WORMCAST_A_NNODES:\n\t\t\tattr_u32(a, &f->nnodes);',
     'case WORMCAST_A_NNODES:\n\t\t\tf->nodes_truncated = true;'),
    ('a daemon policy with the wrong type', DAEMON,
     '[WORMCAST_A_TOPOLOGY] = { .type = NLA_U32 }', '[WORMCAST_A_TOPOLOGY] = { .type = NLA_U16 }'),
    ('a full-range bound changed (TABLE_SIZE max)', GENL,
     '.max = WORMCAST_TABLE_MAX_BYTES,', '.max = WORMCAST_TABLE_CHUNK_MAX,'),
    ('the table-commit notification sent as another command', GENL,
     'genlmsg_put(msg, 0, 0, &wc_genl_family, 0,\n\t\t\t  WORMCAST_CMD_TABLE_COMMIT);',
     'genlmsg_put(msg, 0, 0, &wc_genl_family, 0,\n\t\t\t  WORMCAST_CMD_TABLE_GET);'),
    ('a wormctl decoder reading table data as a u32', WCTL_FABRIC,
     'case WORMCAST_A_TABLE_DATA:\n\t\t\tattr_bytes(a, &p, &len);',
     'case WORMCAST_A_TABLE_DATA:\n\t\t\tattr_u32(a, &len);'),
    ('a uapi struct member of another width', UAPI, '\t__u32 nfaults;\t\t\t/* faulty links after parent_port', '\t__u16 nfaults;\t\t\t/* faulty links after parent_port'),
    ('a uapi define changed (hex)', UAPI, 'WORMCAST_NO_PORT\t\t0xff', 'WORMCAST_NO_PORT\t\t0xfe'),
    ('a parameter put with the wrong width in both replies', KPARAMS,
     '{ WORMCAST_PARAM_VCS, IFLA_WORMCAST_VCS, NLA_U32 }',
     '{ WORMCAST_PARAM_VCS, IFLA_WORMCAST_VCS, NLA_U8 }'),
    ('a parameter paired with another link attribute', KPARAMS,
     '{ WORMCAST_PARAM_VCS, IFLA_WORMCAST_VCS, NLA_U32 }',
     '{ WORMCAST_PARAM_VCS, IFLA_WORMCAST_BUF_FLITS, NLA_U32 }'),
    ('a link counter put with the wrong width', GENL,
     'nla_put_u64_64bit(skb, WORMCAST_LINK_BUSY, busy,\n\t\t\t      WORMCAST_LINK_PAD)',
     'nla_put_u32(skb, WORMCAST_LINK_BUSY, busy)'),
    ('an op losing its dumpit', GENL,
     '.doit = wc_genl_stats_get,\n\t\t.dumpit = wc_genl_stats_dump,', '.doit = wc_genl_stats_get,'),
    ('a dump losing its done (the spec\'s post)', GENL,
     '\t\t.done = wc_genl_table_dump_done,\n', ''),
]


def main():
    verbose = '-v' in sys.argv[1:]
    with open(os.path.join(ROOT, SPEC)) as f:
        spec = yaml.safe_load(f)
    src = load_sources(ROOT)
    n = 0
    fail = 0

    def tap(ok, desc, errs=()):
        nonlocal n, fail
        n += 1
        fail |= not ok
        print('%s %d - %s' % ('ok' if ok else 'not ok', n, desc))
        for e in errs:
            print('# ' + e)

    for desc, errs in run_checks(spec, src):
        tap(not errs, desc, errs)
    # The self-test: every mutation must be caught, by an error the
    # unmutated run does not report.
    base = {(desc, e) for desc, es in run_checks(spec, src) for e in es}

    def caught(results):
        new = [(desc, e) for desc, es in results for e in es if (desc, e) not in base]
        return bool(new), ['caught by "%s": %s' % x for x in new[:2]] if verbose else []

    for desc, mutate in SPEC_MUTATIONS:
        d = copy.deepcopy(spec)
        mutate(d)
        ok, why = caught(run_checks(d, src))
        tap(ok, 'self-test: spec mutation caught: ' + desc, why)
    for desc, path, old, new in SOURCE_MUTATIONS:
        if src[path].count(old) != 1:
            tap(False, 'self-test: source mutation %r: text not found once in %s' % (desc, path))
            continue
        s2 = dict(src)
        s2[path] = src[path].replace(old, new)
        ok, why = caught(run_checks(spec, s2))
        tap(ok, 'self-test: source mutation caught: ' + desc, why)
    print('1..%d' % n)
    return 1 if fail else 0


if __name__ == '__main__':
    sys.exit(main())
