import type { INode } from 'n8n-workflow';

/** A workflow node as unit tests hand it to code that builds n8n errors. */
export const testNode = (name = 'Chat'): INode => ({
	id: 'n',
	name,
	type: 't',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
});
