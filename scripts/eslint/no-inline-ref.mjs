// ESLint rule meshdx-refs/no-inline-ref: a reference to a pod, workload or proxy is written by
// the reference modules of lib/refs (podKey, podIdKey, workloadKey, workloadText, podHref,
// podPath, ...), never assembled inline. It reports a template literal that joins a namespace
// and the next part with a bare `/` (`${ns}/${name}`, `${p.metadata.namespace ?? ''}/${x}`,
// `/pods/${encodeURIComponent(ns)}/${...}`, `${ns}/*`). A namespace is an identifier or property named
// `ns`, `namespace` or ending in `Namespace`/`Ns`, or a call of `nsOf`/`namespaceOf`; `??`, `||`,
// `!`, `?.` and encodeURIComponent() around it are looked through. Other joins with `/` (file
// paths, URL roots, `resource/subresource`) do not start with a namespace and are left alone.
// A property named `kind` or ending in `Kind` before a `/` (`${w.kind}/${w.name}`) is a
// workload written kind first, and is reported too.
//
// Three more formats are written by lib/refs only, checked unless the option `paths: true` says
// only the `/` keys are (the simulator and test data print these wire formats themselves):
// - a service host `NAME.NS.svc.DOMAIN` (serviceFqdn, qualifyServiceHost): a part of a template
//   literal, `+` concatenation or `[...].join('.')` followed by `.svc` (`${name}.${ns}.svc.${d}`,
//   `${h}.svc.cluster.local`, `name + '.' + ns + '.svc.' + domain`);
// - an Istio cluster name `DIRECTION|PORT|SUBSET|FQDN` (formatClusterName): text starting
//   `outbound|`/`inbound|` (or a variant, `inbound-vip|`) followed by a computed part, or
//   `['outbound', port, ...].join('|')`;
// - a finding subject key `Kind|ns|name` (subjectKey): three or more computed parts joined by `|`
//   in which a kind (`kind`, `*Kind`) comes right before a namespace or a name (`name`, `*Name`),
//   in a template literal, a `+` concatenation or an array literal's `.join('|')`. Other `|` keys
//   (a cache stamp, a dedupe key of code, namespace and severity) are left alone.
const NAMESPACE = /^(ns|namespace)$|(Namespace|Ns)$/;
// `${w.kind}/${w.name}`: a workload written kind first (kindName, kubectlRef)
const KIND = /^kind$|Kind$/;
const NAMESPACE_FN = /^(nsOf|namespaceOf)$/;
const NAME = /^name$|Name$/;
const SVC_AFTER = /^\.svc(\.|:|$)/;
const CLUSTER_HEAD = /^(outbound|inbound)(-[a-z]+)?\|/;

function nameOf(node) {
  if (!node) return null;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed) return nameOf(node.property);
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  return null;
}

function isNamespace(node) {
  if (!node) return false;
  switch (node.type) {
    case 'ChainExpression':
    case 'TSNonNullExpression':
    case 'TSAsExpression':
      return isNamespace(node.expression);
    case 'LogicalExpression':
      return isNamespace(node.left) || isNamespace(node.right);
    case 'CallExpression': {
      const callee = nameOf(node.callee);
      if (callee === 'encodeURIComponent' || callee === 'String')
        return isNamespace(node.arguments[0]);
      return callee !== null && NAMESPACE_FN.test(callee);
    }
    case 'Identifier':
    case 'MemberExpression': {
      const n = nameOf(node);
      return n !== null && (NAMESPACE.test(n) || (KIND.test(n) && node.type !== 'Identifier'));
    }
    default:
      return false;
  }
}

function isKind(node) {
  const n = nameOf(unwrap(node));
  return n !== null && KIND.test(n);
}

function isName(node) {
  const n = nameOf(unwrap(node));
  return n !== null && NAME.test(n);
}

function unwrap(node) {
  if (!node) return node;
  if (node.type === 'ChainExpression' || node.type === 'TSNonNullExpression') {
    return unwrap(node.expression);
  }
  if (node.type === 'LogicalExpression' && (node.operator === '??' || node.operator === '||')) {
    return unwrap(node.left);
  }
  return node;
}

function isStringLiteral(node) {
  return node.type === 'Literal' && typeof node.value === 'string';
}

/**
 * A string built from parts, as a list of `{text}` and `{expr}` in order (neighbouring texts
 * merged): a template literal, a `+` chain with a string in it, or `[...].join('sep')` of an
 * array literal. null for anything else.
 */
function pieces(node) {
  const out = [];
  const text = (t) => {
    const last = out[out.length - 1];
    if (last && 'text' in last) last.text += t;
    else out.push({ text: t });
  };
  const add = (n) => {
    if (isStringLiteral(n)) text(n.value);
    else if (n.type === 'TemplateLiteral') {
      n.quasis.forEach((q, i) => {
        text(q.value.cooked ?? q.value.raw);
        if (i < n.expressions.length) out.push({ expr: n.expressions[i] });
      });
    } else if (n.type === 'BinaryExpression' && n.operator === '+') {
      add(n.left);
      add(n.right);
    } else out.push({ expr: n });
  };
  if (node.type === 'TemplateLiteral') add(node);
  else if (node.type === 'BinaryExpression' && node.operator === '+') {
    if (node.parent?.type === 'BinaryExpression' && node.parent.operator === '+') return null;
    add(node);
    if (!out.some((p) => 'text' in p)) return null;
  } else if (node.type === 'CallExpression') {
    const callee = node.callee;
    const sep = node.arguments[0];
    if (
      callee.type !== 'MemberExpression' ||
      callee.computed ||
      callee.property.name !== 'join' ||
      callee.object.type !== 'ArrayExpression' ||
      !sep ||
      !isStringLiteral(sep)
    )
      return null;
    callee.object.elements.forEach((el, i) => {
      if (i > 0) text(sep.value);
      if (el) add(el.type === 'SpreadElement' ? el.argument : el);
    });
  } else return null;
  return out.filter((p) => !('text' in p) || p.text !== '');
}

/** Which wire format the pieces build, with the node to report, or null. */
function wireFormat(parts) {
  if (parts.length === 0 || !parts.some((p) => 'expr' in p)) return null;
  const first = parts[0];
  if ('text' in first && CLUSTER_HEAD.test(first.text)) return { messageId: 'clusterName' };
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i];
    if ('text' in p && 'expr' in parts[i - 1] && SVC_AFTER.test(p.text)) {
      return { messageId: 'serviceHost' };
    }
  }
  // runs of computed parts joined by a bare `|`
  let run = [];
  const runs = [];
  for (const p of parts) {
    if ('expr' in p) run.push(p.expr);
    else if (p.text !== '|') {
      runs.push(run);
      run = [];
    }
  }
  runs.push(run);
  for (const r of runs) {
    if (r.length < 3) continue;
    for (let i = 0; i + 1 < r.length; i++) {
      if (isKind(r[i]) && (isNamespace(r[i + 1]) || isName(r[i + 1]))) {
        return { messageId: 'subjectKey' };
      }
    }
  }
  return null;
}

const noInlineRef = {
  meta: {
    type: 'problem',
    docs: { description: 'pod, workload and proxy references are formatted by lib/refs only' },
    schema: [
      {
        type: 'object',
        properties: { paths: { type: 'boolean' } },
        additionalProperties: false,
      },
    ],
    messages: {
      inline:
        'Inline reference key `${{{ns}}}/...`: format it with lib/refs (podKey, podIdKey, workloadKey, workloadNameKey, workloadText, podHref, podPath).',
      serviceHost:
        'Inline service host {{text}}: write NAME.NS.svc.DOMAIN with lib/refs/service-host (serviceFqdn, qualifyServiceHost).',
      clusterName:
        'Inline Istio cluster name {{text}}: write DIRECTION|PORT|SUBSET|FQDN with lib/refs/cluster-name (formatClusterName).',
      subjectKey:
        'Inline subject key {{text}}: write Kind|ns|name with lib/refs/object-ref (subjectKey).',
    },
  },
  create(context) {
    const pathsOnly = context.options[0]?.paths === true;
    const checkFormats = (node) => {
      if (pathsOnly) return;
      const parts = pieces(node);
      const found = parts && wireFormat(parts);
      if (!found) return;
      const text = context.sourceCode.getText(node);
      context.report({
        node,
        messageId: found.messageId,
        data: { text: text.length > 60 ? text.slice(0, 57) + '...' : text },
      });
    };
    return {
      BinaryExpression: checkFormats,
      CallExpression: checkFormats,
      TemplateLiteral(node) {
        // a template inside a `+` chain is checked with the chain
        if (!(node.parent?.type === 'BinaryExpression' && node.parent.operator === '+'))
          checkFormats(node);
        for (let i = 0; i < node.expressions.length; i++) {
          const after = node.quasis[i + 1];
          if (!after) continue;
          // `${ns}/${name}`, or `${ns}/*` (every host of a namespace); an API path's
          // `/namespaces/${ns}/pods/...` goes on with literal text and is not a reference
          const joins =
            after.value.raw === '/'
              ? i + 1 < node.expressions.length
              : after.value.raw.startsWith('/*');
          if (!joins) continue;
          const expr = node.expressions[i];
          if (isNamespace(expr)) {
            context.report({
              node: expr,
              messageId: 'inline',
              data: { ns: context.sourceCode.getText(expr) },
            });
          }
        }
      },
    };
  },
};

export default { rules: { 'no-inline-ref': noInlineRef } };
