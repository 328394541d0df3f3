import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { App } from '@/app/App';
import { routes } from '@/app/routes';
import { makePersistor, makeStore, type RootState } from '@/app/store';

/** Renders the whole app (real store, real routes) at a path. */
export function renderApp(path = '/', preloadedState?: Partial<RootState>) {
  const store = makeStore(preloadedState);
  const persistor = makePersistor(store);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<App store={store} persistor={persistor} router={router} />);
  return { ...view, store, router };
}
