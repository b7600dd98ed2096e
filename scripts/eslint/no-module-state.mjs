// ESLint rule meshdx-state/no-module-state: state lives in its owner (server/runtime), never in
// a module. Next may load a module more than once and a module outlives every cluster runtime,
// so a module-level variable is state with no owner: nothing clears it on a context switch.
//
// A module may hold only values that are built at load and never change afterwards. Reported:
//   1. a module-level `let` or `var`;
//   2. a module-level `new X(...)`: an object made at load is state (a Map, a WeakMap, a class
//      instance with fields). A read-only lookup table is allowed only as
//      `const X: ReadonlyMap<K, V> = new Map([...])` (or `ReadonlySet`), which the type checker
//      keeps read-only; objects without state are allowed (Intl formats, TextEncoder and
//      TextDecoder, URL, RegExp);
//   3. a class `static` field that is not `readonly`, or that holds an object with state;
//   4. inside any function, a change to a module-level or imported binding's contents (member
//      assignment, `++`/`--`, `delete`, a mutating method such as push/set/add/delete/clear/
//      splice/sort, `Object.assign`/`defineProperty` on it): building a table at load, at the
//      module's top level, is allowed;
//   5. a property written on `globalThis`/`global`.
// Where state is needed: a screen's state is a slot of its `ClusterRuntime` (runtime.screen),
// process-wide state a slot of server/runtime/process-state.ts.
// Not seen by the rule: a module value handed to a function that changes it (`fill(X)`), and
// a container made by a call rather than `new` (`const cache = makeCache()`).

/** Constructors whose objects hold no state a caller can change. */
const STATELESS = new Set(['TextEncoder', 'TextDecoder', 'URL', 'RegExp']);
/** Containers whose read-only type (from TypeScript's lib) keeps them unchanged. */
const READONLY_TYPES = { Map: 'ReadonlyMap', Set: 'ReadonlySet' };
const MUTATORS = new Set([
  'set',
  'add',
  'delete',
  'clear',
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
]);
const OBJECT_MUTATORS = new Set(['assign', 'defineProperty', 'defineProperties', 'setPrototypeOf']);
const GLOBALS = new Set(['globalThis', 'global']);

const WHERE =
  'keep it in its owner: a screen slot of the ClusterRuntime (runtime.screen), a slot of server/runtime/process-state.ts, or an object the caller makes and passes';

/** Strips TypeScript's `x!`, `x as T`, `<T>x`, `x satisfies T` and parentheses around a node. */
function unwrapUp(node) {
  let cur = node;
  while (
    cur.parent &&
    (cur.parent.type === 'TSNonNullExpression' ||
      cur.parent.type === 'TSAsExpression' ||
      cur.parent.type === 'TSTypeAssertion' ||
      cur.parent.type === 'TSSatisfiesExpression' ||
      (cur.parent.type === 'ChainExpression' && cur.parent.expression === cur))
  )
    cur = cur.parent;
  return cur;
}

function unwrapDown(node) {
  let cur = node;
  while (
    cur &&
    (cur.type === 'TSNonNullExpression' ||
      cur.type === 'TSAsExpression' ||
      cur.type === 'TSTypeAssertion' ||
      cur.type === 'TSSatisfiesExpression')
  )
    cur = cur.expression;
  return cur;
}

/** The constructor name of `new X(...)` / `new ns.X(...)` when its object has state, or null. */
function containerOf(init) {
  const e = unwrapDown(init);
  if (!e || e.type !== 'NewExpression') return null;
  const callee = e.callee;
  if (
    callee.type === 'MemberExpression' &&
    callee.object.type === 'Identifier' &&
    callee.object.name === 'Intl'
  )
    return null;
  const name =
    callee.type === 'Identifier'
      ? callee.name
      : callee.type === 'MemberExpression' && callee.property.type === 'Identifier'
        ? callee.property.name
        : '(expression)';
  return STATELESS.has(name) ? null : name;
}

/** Whether the declarator is typed with the container's read-only type (`ReadonlyMap<...>`). */
function typedReadonly(id, container) {
  const want = READONLY_TYPES[container];
  if (!want) return false;
  const ann = id.typeAnnotation?.typeAnnotation;
  return (
    ann?.type === 'TSTypeReference' &&
    ann.typeName.type === 'Identifier' &&
    ann.typeName.name === want
  );
}

function insideFunction(node) {
  for (let p = node.parent; p; p = p.parent) {
    if (
      p.type === 'FunctionDeclaration' ||
      p.type === 'FunctionExpression' ||
      p.type === 'ArrowFunctionExpression'
    )
      return true;
    // a class method or field initializer runs later, like a function
    if (p.type === 'PropertyDefinition' || p.type === 'MethodDefinition') return true;
  }
  return false;
}

/** How an identifier reference changes its value's contents, or null when it does not. */
function mutationAt(ref) {
  const id = ref.identifier;
  let cur = unwrapUp(id);
  const parent = cur.parent;
  if (!parent) return null;
  // Object.assign(X, ...), Object.defineProperty(X, ...)
  if (
    parent.type === 'CallExpression' &&
    parent.arguments[0] === cur &&
    parent.callee.type === 'MemberExpression' &&
    parent.callee.object.type === 'Identifier' &&
    parent.callee.object.name === 'Object' &&
    parent.callee.property.type === 'Identifier' &&
    OBJECT_MUTATORS.has(parent.callee.property.name)
  )
    return `Object.${parent.callee.property.name}`;
  if (parent.type !== 'MemberExpression' || parent.object !== cur) return null;
  // X.push(...), X.set(...)
  const prop = parent.property;
  const method = !parent.computed && prop.type === 'Identifier' ? prop.name : null;
  const call = unwrapUp(parent).parent;
  if (
    method &&
    MUTATORS.has(method) &&
    call?.type === 'CallExpression' &&
    call.callee === unwrapUp(parent)
  )
    return `.${method}()`;
  // X.a = ..., X[k].b = ..., X.a++, delete X.a
  let member = unwrapUp(parent);
  while (member.parent?.type === 'MemberExpression' && member.parent.object === member)
    member = unwrapUp(member.parent);
  const top = member.parent;
  if (!top) return null;
  if (top.type === 'AssignmentExpression' && top.left === member) return 'an assignment';
  if (top.type === 'UpdateExpression' && top.argument === member) return top.operator;
  if (top.type === 'UnaryExpression' && top.operator === 'delete' && top.argument === member)
    return 'delete';
  if ((top.type === 'ForInStatement' || top.type === 'ForOfStatement') && top.left === member)
    return 'a loop assignment';
  return null;
}

export const noModuleState = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid module-level mutable state outside server/runtime' },
    schema: [],
    messages: {
      moduleLet: `module-level \`{{kind}} {{name}}\` is state without an owner; ${WHERE}.`,
      container: `module-level \`new {{container}}\` ({{name}}) is state without an owner; ${WHERE}. A lookup table built once and only read may stay as \`const {{name}}: Readonly{{container}}<...> = new {{container}}(...)\`.`,
      weak: `module-level \`new {{container}}\` ({{name}}) is state without an owner; ${WHERE}.`,
      staticField: `class static field \`{{name}}\` is {{why}}; ${WHERE}.`,
      mutated: `\`{{name}}\` is a module-level value changed at run time ({{how}}); ${WHERE}. A module may hold only values built at load and never changed.`,
      globalWrite: `writing \`{{name}}\` on the global object is state without an owner; ${WHERE}.`,
    },
  },
  create(context) {
    const sourceCode = context.sourceCode;
    function checkContainer(id, init) {
      const container = containerOf(init);
      if (!container || typedReadonly(id, container)) return;
      const name = id.type === 'Identifier' ? id.name : '(pattern)';
      context.report({
        node: init,
        messageId: READONLY_TYPES[container] ? 'container' : 'weak',
        data: { container, name },
      });
    }
    return {
      'Program:exit'(program) {
        const moduleScope = sourceCode
          .getScope(program)
          .childScopes.find((s) => s.type === 'module');
        const scope = moduleScope ?? sourceCode.getScope(program);
        // 1, 2: declarations at the module's top level (also under `export`)
        for (const st of program.body) {
          const decl =
            st.type === 'VariableDeclaration'
              ? st
              : (st.type === 'ExportNamedDeclaration' || st.type === 'ExportDefaultDeclaration') &&
                  st.declaration?.type === 'VariableDeclaration'
                ? st.declaration
                : null;
          if (!decl) continue;
          for (const d of decl.declarations) {
            if (decl.kind === 'let' || decl.kind === 'var') {
              const name = d.id.type === 'Identifier' ? d.id.name : '(pattern)';
              context.report({ node: d, messageId: 'moduleLet', data: { kind: decl.kind, name } });
            } else if (d.init) {
              checkContainer(d.id, d.init);
            }
          }
        }
        // 4: module-level and imported bindings changed inside a function
        for (const variable of scope.variables) {
          const def = variable.defs[0];
          if (!def) continue;
          if (def.type !== 'Variable' && def.type !== 'ImportBinding' && def.type !== 'ClassName')
            continue;
          for (const ref of variable.references) {
            if (!insideFunction(ref.identifier)) continue;
            const how = mutationAt(ref);
            if (how)
              context.report({
                node: ref.identifier,
                messageId: 'mutated',
                data: { name: variable.name, how },
              });
          }
        }
      },
      // 3: class static fields
      PropertyDefinition(node) {
        if (!node.static) return;
        const name = node.key.type === 'Identifier' ? node.key.name : '(computed)';
        if (!node.readonly) {
          context.report({ node, messageId: 'staticField', data: { name, why: 'not readonly' } });
          return;
        }
        if (node.value) {
          const container = containerOf(node.value);
          if (container && !typedReadonly(node, container))
            context.report({
              node,
              messageId: 'staticField',
              data: { name, why: `a mutable \`${container}\`` },
            });
        }
      },
      // 5: globalThis.x = ..., global.x = ...
      AssignmentExpression(node) {
        let left = unwrapDown(node.left);
        while (left?.type === 'MemberExpression') {
          const obj = unwrapDown(left.object);
          if (obj.type === 'Identifier' && GLOBALS.has(obj.name)) {
            const name =
              !left.computed && left.property.type === 'Identifier'
                ? `${obj.name}.${left.property.name}`
                : obj.name;
            context.report({ node, messageId: 'globalWrite', data: { name } });
            return;
          }
          left = obj;
        }
      },
    };
  },
};

export default { rules: { 'no-module-state': noModuleState } };
