import type { INodeProperties, INodePropertyCollection, INodeType } from 'n8n-workflow';

import { ModelGatewayAssetReview } from '../../nodes/ModelGatewayAssetReview/ModelGatewayAssetReview.node';
import { ModelGatewayChat } from '../../nodes/ModelGatewayChat/ModelGatewayChat.node';
import { ModelGatewayImageEdit } from '../../nodes/ModelGatewayImageEdit/ModelGatewayImageEdit.node';
import { ModelGatewayResponses } from '../../nodes/ModelGatewayResponses/ModelGatewayResponses.node';
import { isBlank, isBlankJson, trimmedText } from '../../nodes/shared/items/values';
import { ModelGatewayApi } from '../../credentials/ModelGatewayApi.credentials';
import { ModelGatewayAssetReviewApi } from '../../credentials/ModelGatewayAssetReviewApi.credentials';
import { packageNodeTypes } from '../engine/packageNodes';

/** What the editor shows is public: it speaks the user's words, in n8n's order and vocabulary. */

const nodes: Record<string, INodeType> = {
	chat: new ModelGatewayChat(),
	responses: new ModelGatewayResponses(),
	imageEdit: new ModelGatewayImageEdit(),
	assetReview: new ModelGatewayAssetReview(),
};

/** Every property of a node, nested ones included. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option) return allProperties((option as INodePropertyCollection).values);
			return 'displayName' in option && 'type' in option ? [option as INodeProperties] : [];
		});
		return [property, ...allProperties(nested)];
	});
}

describe.each(Object.entries(nodes))('the %s node editor', (name, node) => {
	const properties = allProperties(node.description.properties);

	it('sorts its options collection by display name', () => {
		const options = node.description.properties.find((property) => property.name === 'options');
		const names = (options?.options as INodeProperties[]).map((option) => option.displayName);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
	});

	it('speaks of no internals: no spec, no endpoint path, no node that does not ship', () => {
		const texts = properties.flatMap((property) => [
			property.displayName,
			property.description ?? '',
			property.hint ?? '',
		]);
		const shipped = Object.values(packageNodeTypes).map((type) => type.description.displayName);
		for (const text of texts) {
			expect(text).not.toMatch(/\bspec\b|\/v1\/|\/api\//i);
			for (const named of text.match(/Model Gateway (?:[A-Z][a-z]+ ?)+/g) ?? []) {
				expect(shipped).toContain(named.trim());
			}
		}
	});

	it("names binary fields in n8n's words, each with a hint", () => {
		const binaryFields = properties.filter(
			(property) =>
				/binaryProp/i.test(property.name) || /binary field|output file/i.test(property.displayName),
		);
		expect(binaryFields).toHaveLength(name === 'imageEdit' ? 2 : 0);
		for (const field of binaryFields) {
			expect(field.name).toBe('binaryPropertyName');
			expect(['Input Binary Field(s)', 'Put Output File in Field']).toContain(field.displayName);
			expect(field.hint).toEqual(expect.any(String));
		}
	});

	it('lets no expression choose a mode', () => {
		const modes = properties.filter((property) =>
			['messagesMode', 'inputMode', 'source', 'urlSource'].includes(property.name),
		);
		expect(modes).toHaveLength(1);
		for (const mode of modes) expect(mode.noDataExpression).toBe(true);
	});
});

describe('value checks', () => {
	it('treat missing, empty and whitespace-only text as blank, and nothing else', () => {
		expect([undefined, null, '', '  \n'].map(isBlank)).toEqual([true, true, true, true]);
		expect([0, false, 'a', [], {}].map(isBlank)).toEqual([false, false, false, false, false]);
	});

	it('treat an empty JSON list or object, as text or value, as blank JSON', () => {
		expect(['{}', ' [ ] ', [], {}, undefined].map(isBlankJson)).toEqual([
			true,
			true,
			true,
			true,
			true,
		]);
		expect(['[1]', '{"a":1}', [0], { a: 1 }].map(isBlankJson)).toEqual([
			false,
			false,
			false,
			false,
		]);
	});

	it('trim text and drop blank text', () => {
		expect([' a ', '  ', 3].map(trimmedText)).toEqual(['a', undefined, undefined]);
	});
});

/** Every text a user reads in a list of properties: names, descriptions, hints, notices, option texts. */
function editorTexts(properties: INodeProperties[]): string[] {
	return properties.flatMap((property) => [
		property.displayName,
		property.description ?? '',
		property.hint ?? '',
		...(property.options ?? []).flatMap((option) =>
			'values' in option
				? editorTexts((option as INodePropertyCollection).values)
				: 'type' in option
					? editorTexts([option as INodeProperties])
					: [option.name, (option as { description?: string }).description ?? ''],
		),
	]);
}

describe('every node and credential speaks of the gateway, never of our spec or simulator', () => {
	const sources: Array<[string, INodeProperties[], string]> = [
		...Object.entries(packageNodeTypes).map(([type, node]): [string, INodeProperties[], string] => [
			type,
			node.description.properties,
			node.description.description ?? '',
		]),
		['credential modelGatewayApi', new ModelGatewayApi().properties, ''],
		['credential modelGatewayAssetReviewApi', new ModelGatewayAssetReviewApi().properties, ''],
	];
	it.each(sources)('%s', (_name, properties, description) => {
		for (const text of [description, ...editorTexts(properties)]) {
			expect(text).not.toMatch(/\bspec\b|\bspec's\b|simulator|\{base_url\}/i);
		}
	});
});
