import { parseJsonText, tryParseJsonText } from '../../nodes/shared/items/jsonText';
import { testNode } from './testNode';

const node = testNode();

describe('JSON text', () => {
	it.each([
		['not json', "Unexpected token 'o' at position 1 (line 1, column 2)"],
		['{"a": 1,}', 'Expected double-quoted property name at position 8 (line 1, column 9)'],
		['{"a"', "Expected ':' after property name at position 4 (line 1, column 5)"],
		['', 'Unexpected end of JSON input at position 0 (line 1, column 1)'],
		['{\n  "a": tru\n}', "Unexpected token '\n' at position 12 (line 2, column 11)"],
		[
			'{"a": "it\'s"} x',
			'Unexpected non-whitespace character after JSON at position 14 (line 1, column 15)',
		],
	])('reports where %j stops parsing', (text, problem) => {
		expect(tryParseJsonText(text)).toEqual({ ok: false, problem });
	});

	it('parses JSON text and passes values that are already parsed', () => {
		const where = { node, field: 'Tools (JSON)', itemIndex: 2 };
		expect(parseJsonText('[{"a": 1}]', where)).toEqual([{ a: 1 }]);
		expect(parseJsonText({ a: 1 }, where)).toEqual({ a: 1 });
	});

	it('refuses text that does not parse, naming the field, the item and the position', () => {
		expect(() =>
			parseJsonText('{"type": "object",}', { node, field: 'JSON Schema', itemIndex: 3 }),
		).toThrow(
			'Item 3: "JSON Schema" is not valid JSON: Expected double-quoted property name at position 18 (line 1, column 19)',
		);
	});
});
