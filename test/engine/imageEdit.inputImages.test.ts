import { PNG_FILE } from '../simulator/files';
import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

/**
 * Image Edit's "Images" entries with fields left unset (as an imported or hand-written workflow
 * may hold them; n8n fills in the editor's defaults), and binary inputs missing from the item:
 * an unset entry reads the binary field `data`, an unset URL or Base64 is refused as empty, and
 * a missing binary field says what the item has. Nothing is sent for a refused item.
 */

const gateway = useSimulator();

const NODE = 'Node Under Test';
const EDITS = '/v1/images/edits';
const PNG_BASE64 = PNG_FILE.bytes.toString('base64');

const editNode = (values: object[]) => ({
	type: 'modelGatewayImageEdit',
	parameters: { model: 'image-edit-1', prompt: 'Make the sky purple', images: { values } },
});
const withPng = { json: {}, binary: { data: { data: PNG_FILE.bytes, mimeType: 'image/png' } } };

describe('Image Edit: entries with unset fields', () => {
	it('an entry with nothing set sends the binary field "data" as a data URI', async () => {
		const result = await runNode(editNode([{}]), {
			credentials: gateway.credentials(),
			input: [withPng],
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(gateway.simulator.requestsTo('POST', EDITS)[0].body).toMatchObject({
			image: [`data:image/png;base64,${PNG_BASE64}`],
		});
		expect(result.items).toHaveLength(1);
	});

	it('a binary entry without a field name reads "data"', async () => {
		const result = await runNode(editNode([{ source: 'binary' }]), {
			credentials: gateway.credentials(),
			input: [withPng],
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(gateway.simulator.requestsTo('POST', EDITS)[0].body).toMatchObject({
			image: [`data:image/png;base64,${PNG_BASE64}`],
		});
	});

	it.each([
		['a URL entry without a URL', { source: 'url' }],
		['a Base64 entry without data', { source: 'base64' }],
	])('%s is refused as empty before sending', async (_case, entry) => {
		const result = await runNode(editNode([entry]), {
			credentials: gateway.credentials(),
			input: [withPng],
		});
		expect(result.error(NODE)?.message).toBe(
			'Item 0: "image[0]": must not be empty: give an http or https URL or Base64 data',
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});
});

describe('Image Edit: a binary field the item does not have', () => {
	it('on an item without any binary data, says so and sends nothing', async () => {
		const result = await runNode(editNode([{ source: 'binary', binaryPropertyName: 'data' }]), {
			credentials: gateway.credentials(),
			input: [{ json: { note: 'no file' } }],
		});
		const error = result.error(NODE);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe('Item 0: binary property "data" not found on the input item');
		expect(error?.description).toBe(
			'The item has no binary data. Nothing was sent to the gateway.',
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('on an item with other binary fields, names them', async () => {
		const result = await runNode(editNode([{ source: 'binary', binaryPropertyName: 'photo' }]), {
			credentials: gateway.credentials(),
			input: [withPng],
		});
		expect(result.error(NODE)?.message).toBe(
			'Item 0: binary property "photo" not found on the input item',
		);
		expect(result.error(NODE)?.description).toBe(
			'The item has: data. Nothing was sent to the gateway.',
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});
});
