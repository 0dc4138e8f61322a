import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { checkValueLimits, DEFAULT_INPUT_LIMITS, InputLimitError } from '@schedlab/k8s';

/** JSON arguments obey the default input limits (depth, string size), like /v1 bodies. */
function withinLimits(value: unknown): unknown {
  try {
    checkValueLimits(value, DEFAULT_INPUT_LIMITS);
  } catch (error) {
    if (error instanceof InputLimitError) {
      throw new GraphQLError(error.message, {
        extensions: {
          code: 'input_too_complex',
          status: 400,
          details: { setting: error.setting, limit: error.max, field: error.field },
        },
      });
    }
    throw error;
  }
  return value;
}

function literalValue(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(literalValue);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value)]));
    default:
      throw new TypeError(`JSON cannot represent a ${node.kind}`);
  }
}

/** Arbitrary JSON (counts, labels, summaries, explanations): shapes owned by the engine. */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: withinLimits,
  parseLiteral: (node) => withinLimits(literalValue(node)),
});
