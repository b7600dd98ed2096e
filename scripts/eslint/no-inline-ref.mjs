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
const NAMESPACE = /^(ns|namespace)$|(Namespace|Ns)$/;
// `${w.kind}/${w.name}`: a workload written kind first (kindName, kubectlRef)
const KIND = /^kind$|Kind$/;
const NAMESPACE_FN = /^(nsOf|namespaceOf)$/;

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

const noInlineRef = {
  meta: {
    type: 'problem',
    docs: { description: 'pod, workload and proxy references are formatted by lib/refs only' },
    schema: [],
    messages: {
      inline:
        'Inline reference key `${{{ns}}}/...`: format it with lib/refs (podKey, podIdKey, workloadKey, workloadNameKey, workloadText, podHref, podPath).',
    },
  },
  create(context) {
    return {
      TemplateLiteral(node) {
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
