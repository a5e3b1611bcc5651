import { bytes, json } from '../reply';
import type { Route } from '../router';
import type { SimState } from '../state';

/** Result files, served on both hosts without credentials, like CDN links. */
export function fileRoutes(state: SimState): Route[] {
	return [
		{
			host: 'both',
			methods: ['GET', 'HEAD'],
			pattern: /^\/files\/(.+)$/,
			isPublicFile: true,
			handle: ({ params: [name] }) => {
				const file = state.files.get(name);
				return file
					? bytes(file.contentType, file.bytes)
					: json(404, { error: { message: 'file not found' } });
			},
		},
	];
}
