import { validationRows } from './__fixtures__/validation.table';
import { PLUGIN_REGISTRY } from './registry';

describe('plugin args validation: upstream validation_test.go tables', () => {
  it.each(validationRows.map((row) => [`${row.plugin}: ${row.description}`, row] as const))(
    '%s',
    (_d, row) => {
      const result = PLUGIN_REGISTRY[row.plugin].argsSchema.safeParse(row.args);
      if (row.errors.length === 0) {
        expect(result.success).toBe(true);
        return;
      }
      expect(result.success).toBe(false);
      const messages = result.success ? [] : result.error.issues.map((i) => i.message);
      if (row.selectorError) {
        // apimachinery's wording differs; the field and the cause are what users need.
        expect(messages[0]).toMatch(/^invalid label selector: matchExpressions\[0\]/);
        return;
      }
      // Each problem we report is one upstream reports; the first one always is.
      expect(row.errors).toEqual(expect.arrayContaining(messages));
      expect(row.errors).toContain(messages[0]);
    },
  );
});
