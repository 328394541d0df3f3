import { Provider } from 'react-redux';
import { RouterProvider, type DataRouter } from 'react-router';
import type { Persistor } from 'redux-persist';
import { PersistGate } from 'redux-persist/integration/react';
import type { AppStore } from './store';

interface AppProps {
  store: AppStore;
  persistor: Persistor;
  router: DataRouter;
}

/** Providers; routing starts only once the persisted state is restored. */
export function App({ store, persistor, router }: AppProps) {
  return (
    <Provider store={store}>
      <PersistGate loading={null} persistor={persistor}>
        <RouterProvider router={router} />
      </PersistGate>
    </Provider>
  );
}
