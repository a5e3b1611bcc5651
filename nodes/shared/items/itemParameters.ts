import type {
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	NodeParameterValueType,
} from 'n8n-workflow';

/**
 * Node parameters read per item, with as little of n8n's per-call work as gives the same value.
 *
 * n8n's getNodeParameter copies and resolves a parameter for every call; a parameter that
 * holds no expression (nothing starting with `=` anywhere in it) has the same value for every
 * item, so its first value is kept for the rest of the run (keyed by the run's context, as
 * the transport keeps its credential read). Objects are handed out as copies, so a caller
 * that changes one does not change the next item's.
 *
 * A parameter whose only expressions read a field of the item, `{{ $json.a.b }}` as the whole
 * value (the most common expression by far), is filled in from the item's JSON directly when
 * that field is a string, a finite number or a boolean: the value n8n's expression engine
 * gives, without its sandbox round trip (about half a millisecond per expression in n8n 1.x,
 * the largest cost per item). Anything else, a missing field included, goes to n8n.
 */

/** What one node run reads once and every item reuses, keyed by the run's context. */
interface RunState {
	// getNode() hands out a deep copy of the node every call; the node does not change during a
	// run, so one copy per run is made (for parameters, and for the errors that name the node).
	node: INode;
	/** The node's input, which does not change during a run, once fetched. */
	input?: INodeExecutionData[];
	/** Per parameter path: its raw value and whether it holds an expression. */
	plans: Map<string, ParameterPlan>;
	/** Resolved values of parameters that are the same for every item, by path and fallback. */
	values: Map<string, unknown>;
}

const runStates = new WeakMap<object, RunState>();

function runState(context: IExecuteFunctions): RunState {
	let state = runStates.get(context);
	if (!state) {
		state = { node: context.getNode(), plans: new Map(), values: new Map() };
		runStates.set(context, state);
	}
	return state;
}

/** The node of this run (one copy per run; treat it as read-only). */
export function nodeOfRun(context: IExecuteFunctions): INode {
	return runState(context).node;
}

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value).some(holdsExpression);
	return false;
}

/** The raw (unresolved) value at a dotted parameter path such as `options.timeout`. */
function rawParameter(parameters: INodeParameters, path: string): unknown {
	let value: unknown = parameters;
	for (const key of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

/** What a parameter is for the whole run: its raw value, and whether it holds an expression. */
interface ParameterPlan {
	raw: unknown;
	sameForEveryItem: boolean;
}

/** Read off the node's parameters once per run and path: every item asks again. */
function planOf(context: IExecuteFunctions, path: string): ParameterPlan {
	const { plans, node } = runState(context);
	let plan = plans.get(path);
	if (!plan) {
		const raw = rawParameter(node.parameters, path);
		plan = { raw, sameForEveryItem: !holdsExpression(raw) };
		plans.set(path, plan);
	}
	return plan;
}

/** Whether a parameter has the same value for every item of this node run. */
export function sameForEveryItem(context: IExecuteFunctions, path: string): boolean {
	return planOf(context, path).sameForEveryItem;
}

/** `={{ $json.a.b }}` as a whole value, with its path (`a.b`); identifiers only. */
const ITEM_FIELD_EXPRESSION = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*)+)\s*\}\}$/;

/** Marks an expression this module cannot resolve itself. */
const UNRESOLVED = Symbol('unresolved');

function itemField(json: unknown, path: string): unknown {
	let value = json;
	for (const key of path.slice(1).split('.')) {
		if (value === null || typeof value !== 'object' || Array.isArray(value)) return UNRESOLVED;
		if (!Object.prototype.hasOwnProperty.call(value, key)) return UNRESOLVED;
		value = (value as Record<string, unknown>)[key];
	}
	const primitive =
		typeof value === 'string' ||
		typeof value === 'boolean' ||
		(typeof value === 'number' && Number.isFinite(value));
	return primitive ? value : UNRESOLVED;
}

/** A copy of `raw` with its item-field expressions filled in from `json`, or UNRESOLVED. */
function withItemFields(raw: unknown, json: unknown): unknown {
	if (typeof raw === 'string') {
		if (!raw.startsWith('=')) return raw;
		const match = ITEM_FIELD_EXPRESSION.exec(raw);
		return match ? itemField(json, match[1]) : UNRESOLVED;
	}
	if (Array.isArray(raw)) {
		const values = raw.map((entry) => withItemFields(entry, json));
		return values.includes(UNRESOLVED) ? UNRESOLVED : values;
	}
	if (raw !== null && typeof raw === 'object') {
		const record: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(raw)) {
			const value = withItemFields(entry, json);
			if (value === UNRESOLVED) return UNRESOLVED;
			record[key] = value;
		}
		return record;
	}
	return raw;
}

/** The item's own JSON, as `$json` sees it in a node with one input. */
function itemJson(context: IExecuteFunctions, itemIndex: number): unknown {
	const state = runState(context);
	state.input ??= context.getInputData();
	return state.input[itemIndex]?.json ?? UNRESOLVED;
}

/** A copy of a parameter value (JSON: objects, arrays and primitives). */
function copyOf<T>(value: T): T {
	if (Array.isArray(value)) return value.map(copyOf) as T;
	if (value === null || typeof value !== 'object') return value;
	const copy: Record<string, unknown> = {};
	for (const key of Object.keys(value)) copy[key] = copyOf((value as Record<string, unknown>)[key]);
	return copy as T;
}

/** A key for a fallback value: primitives without JSON's cost, objects by their JSON. */
function fallbackKey(fallback: unknown): string {
	return fallback !== null && typeof fallback === 'object'
		? JSON.stringify(fallback)
		: `${typeof fallback}:${String(fallback)}`;
}

/**
 * `getNodeParameter(path, itemIndex, fallback)`: resolved once per run when it holds no
 * expression, filled in from the item when its expressions only read item fields.
 */
export function itemParameter<T extends NodeParameterValueType | object>(
	context: IExecuteFunctions,
	path: string,
	itemIndex: number,
	fallback: T,
): T {
	const read = () => context.getNodeParameter(path, itemIndex, fallback) as T;
	const plan = planOf(context, path);
	if (!plan.sameForEveryItem) {
		const json = itemJson(context, itemIndex);
		const filled = json === UNRESOLVED ? UNRESOLVED : withItemFields(plan.raw, json);
		return filled === UNRESOLVED ? read() : (filled as T);
	}
	const { values } = runState(context);
	const key = `${path}\u0000${fallbackKey(fallback)}`;
	if (!values.has(key)) values.set(key, read());
	return copyOf(values.get(key) as T);
}
