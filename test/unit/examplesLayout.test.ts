import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { EXAMPLES_DIR, exampleFiles } from '../e2e/examples';

/**
 * How the shipped workflows look when opened (issue 49): each lane of nodes sits on a coloured
 * sticky note that names it, placed behind it, so a person finds what to change without reading
 * every node's name. And since n8n (executionOrder v1) runs the branches of a node in the order
 * of their positions on the canvas, a layout must not change what runs first.
 */

/** The examples laid out in lanes: every node of theirs lies on a sticky note. */
const LANED_EXAMPLES = ['video-data-table-batch.json', 'video-pipeline-data-table.json'];

const STICKY = 'n8n-nodes-base.stickyNote';
/** n8n draws a node in a box of about this size from its position (its top-left corner). */
const NODE_SIZE = 100;

interface LayoutNode {
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
}

interface LayoutWorkflow {
	nodes: LayoutNode[];
	connections: Record<string, { main?: Array<Array<{ node: string }> | null> } | undefined>;
}

function load(file: string): LayoutWorkflow {
	return JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as LayoutWorkflow;
}

interface Rectangle {
	name: string;
	left: number;
	top: number;
	right: number;
	bottom: number;
}

function stickyRectangles(workflow: LayoutWorkflow): Rectangle[] {
	return workflow.nodes
		.filter((node) => node.type === STICKY)
		.map((node) => ({
			name: node.name,
			left: node.position[0],
			top: node.position[1],
			right: node.position[0] + Number(node.parameters.width),
			bottom: node.position[1] + Number(node.parameters.height),
		}));
}

/** The nodes of `workflow` whose box lies on no sticky note (empty: all are on one). */
export function nodesOffTheNotes(workflow: LayoutWorkflow): string[] {
	const notes = stickyRectangles(workflow);
	return workflow.nodes
		.filter((node) => node.type !== STICKY)
		.filter((node) => {
			const [x, y] = node.position;
			return !notes.some(
				(note) =>
					x >= note.left &&
					y >= note.top &&
					x + NODE_SIZE <= note.right &&
					y + NODE_SIZE <= note.bottom,
			);
		})
		.map((node) => node.name);
}

test('the laned examples exist', () => {
	for (const file of LANED_EXAMPLES) expect(exampleFiles()).toContain(file);
});

test.each(LANED_EXAMPLES)('every node of %s lies on a sticky note', (file) => {
	expect(nodesOffTheNotes(load(file))).toEqual([]);
});

test('a node moved off its note is found', () => {
	const workflow = load(LANED_EXAMPLES[0]);
	const node = workflow.nodes.find((candidate) => candidate.type !== STICKY) as LayoutNode;
	const notes = stickyRectangles(workflow);
	node.position = [Math.max(...notes.map((note) => note.right)) + 200, node.position[1]];
	expect(nodesOffTheNotes(workflow)).toEqual([node.name]);
});

test.each(LANED_EXAMPLES)(
	'every sticky note of %s names its lane with a heading, and the lanes are coloured',
	(file) => {
		const notes = load(file).nodes.filter((node) => node.type === STICKY);
		expect(notes.length).toBeGreaterThan(1);
		for (const note of notes) {
			expect([note.name, note.typeVersion]).toEqual([note.name, 1]);
			expect([note.name, String(note.parameters.content)]).toEqual([
				note.name,
				expect.stringMatching(/^## \S/),
			]);
			expect(Number(note.parameters.width)).toBeGreaterThan(0);
			expect(Number(note.parameters.height)).toBeGreaterThan(0);
		}
		// Besides the one long note (how to set it up), each lane's note has a colour.
		const lanes = notes.filter((note) => note.name !== 'Sticky Note');
		expect(lanes.length).toBeGreaterThan(1);
		for (const lane of lanes)
			expect([lane.name, lane.parameters.color]).toEqual([lane.name, expect.any(Number)]);
	},
);

/**
 * n8n (executionOrder v1) starts the nodes one node feeds top to bottom, then left to right, by
 * their positions. The examples list each output's targets in the order they must run (a run
 * creates before it checks, lists and reports), so moving nodes must keep that order.
 */
test.each(exampleFiles())(
	'%s: the nodes one output feeds run in the order it lists them',
	(file) => {
		const workflow = load(file);
		const position = (name: string) =>
			(workflow.nodes.find((node) => node.name === name) as LayoutNode).position;
		const byPosition = (a: string, b: string) =>
			position(a)[1] - position(b)[1] || position(a)[0] - position(b)[0];
		for (const [source, outputs] of Object.entries(workflow.connections))
			for (const [index, links] of (outputs?.main ?? []).entries()) {
				const listed = (links ?? []).map((link) => link.node);
				expect([source, index, [...listed].sort(byPosition)]).toEqual([source, index, listed]);
			}
	},
);

/**
 * A Wait for Task node sends items down several outputs at once; what they feed runs in output
 * order (Succeeded before Failed, …, the Batch Report last) only while it is stacked that way.
 */
test.each(exampleFiles())('%s: what Wait for Task feeds is stacked in output order', (file) => {
	const workflow = load(file);
	const position = (name: string) =>
		(workflow.nodes.find((node) => node.name === name) as LayoutNode).position;
	for (const node of workflow.nodes.filter((candidate) =>
		candidate.type.endsWith('.modelGatewayWaitForTask'),
	)) {
		const targets = (workflow.connections[node.name]?.main ?? []).flatMap((links) =>
			(links ?? []).map((link) => link.node),
		);
		const stacked = [...targets].sort(
			(a, b) => position(a)[1] - position(b)[1] || position(a)[0] - position(b)[0],
		);
		expect([node.name, stacked]).toEqual([node.name, targets]);
	}
});
