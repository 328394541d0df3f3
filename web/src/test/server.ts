import { setupServer } from 'msw/node';

/** HTTP-level mock of the gateway; each test declares the answers it needs. */
export const server = setupServer();

/** Absolute URL of an API path as the app calls it (jsdom's origin). */
export const apiUrl = (path: string) => new URL(`/api/${path}`, window.location.origin).href;
