// TypeBox's `Type.*` builders only build and return schema objects. webpack cannot know that, so
// a browser module that takes one constant or guard from a contract module (e.g. the host's
// paths take EMAIL_CHANGE_CONFIRM_PATH from contract/src/email-change.ts) kept every schema of
// that module and with them all of TypeBox: 10 kB gzip on every first visit (issue #11's budget).
// Declared pure, unused schemas are dropped by webpack's inner graph and the minifier, and
// TypeBox is downloaded only where a schema is used.
import { createRequire } from 'node:module';
import path from 'node:path';

const PLUGIN_NAME = 'PureTypeBoxBuildersPlugin';
const TYPEBOX = '@sinclair/typebox';

/**
 * Whether `callee` is `Type.<builder>` for the `Type` imported from TypeBox, in the module the
 * parser reads (a local variable named Type is not).
 */
function isTypeBoxBuilder(parser, callee, harmonySpecifierTag) {
  if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return false;
  if (callee.object.type !== 'Identifier') return false;
  const imported = parser.getTagData(callee.object.name, harmonySpecifierTag);
  return imported?.source === TYPEBOX && imported.ids.length === 1 && imported.ids[0] === 'Type';
}

/**
 * A builder call is pure when what it is given is (literals, options objects, other builder
 * calls). In a module of a package that declares itself free of side effects (`"sideEffects":
 * false`, as @portal/contract does), it is pure whatever it is given: such a package promises that
 * evaluating its modules changes nothing, so an unused schema built from, say,
 * `CODES.map((c) => Type.Literal(c))` may go too.
 */
export class PureTypeBoxBuildersPlugin {
  /** `appDir`: the app whose webpack builds (its parser's import tag is the one to read). */
  constructor(appDir) {
    const fromApp = createRequire(path.join(appDir, 'package.json'));
    ({ harmonySpecifierTag: this.harmonySpecifierTag } = fromApp(
      'webpack/lib/dependencies/HarmonyImportDependencyParserPlugin',
    ));
    if (typeof this.harmonySpecifierTag !== 'symbol') {
      throw new Error(`${PLUGIN_NAME}: this webpack has no harmonySpecifierTag`);
    }
  }

  apply(compiler) {
    compiler.hooks.normalModuleFactory.tap(PLUGIN_NAME, (factory) => {
      const onParser = (parser) => {
        parser.hooks.isPure.for('CallExpression').tap(PLUGIN_NAME, (expr) => {
          if (!isTypeBoxBuilder(parser, expr.callee, this.harmonySpecifierTag)) return undefined;
          if (parser.state.module.factoryMeta?.sideEffectFree === true) return true;
          let position = expr.callee.range[1];
          for (const arg of expr.arguments) {
            // Not provably pure: webpack's own rules decide (a `#__PURE__` call, or not pure).
            if (arg.type === 'SpreadElement' || !parser.isPure(arg, position)) return undefined;
            position = arg.range[1];
          }
          return true;
        });
      };
      for (const type of ['javascript/auto', 'javascript/esm']) {
        factory.hooks.parser.for(type).tap(PLUGIN_NAME, onParser);
      }
    });
  }
}
