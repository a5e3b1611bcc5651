import type { IExecuteFunctions, INodeParameters, NodeParameterValueType } from 'n8n-workflow';

/**
 * Node parameters read per item, evaluated once per node run when they cannot vary per item.
 *
 * n8n's getNodeParameter copies and resolves a parameter for every call; a parameter that
 * holds no expression (nothing starting with `=` anywhere in it) has the same value for every
 * item, so its first value is kept for the rest of the run (keyed by the run's context, as
 * the transport keeps its credential read). Objects are handed out as copies, so a caller
 * that changes one does not change the next item's.
 */

const runValues = new WeakMap<object, Map<string, unknown>>();

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

/** Whether a parameter has the same value for every item of this node run. */
export function sameForEveryItem(context: IExecuteFunctions, path: string): boolean {
	return !holdsExpression(rawParameter(context.getNode().parameters, path));
}

/** `getNodeParameter(path, itemIndex, fallback)`, resolved once per run when it holds no expression. */
export function itemParameter<T extends NodeParameterValueType | object>(
	context: IExecuteFunctions,
	path: string,
	itemIndex: number,
	fallback: T,
): T {
	const read = () => context.getNodeParameter(path, itemIndex, fallback) as T;
	if (!sameForEveryItem(context, path)) return read();
	const values = runValues.get(context) ?? new Map<string, unknown>();
	runValues.set(context, values);
	const key = `${path}\u0000${JSON.stringify(fallback) ?? ''}`;
	if (!values.has(key)) values.set(key, read());
	const value = values.get(key) as T;
	return value !== null && typeof value === 'object' ? structuredClone(value) : value;
}
