import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Router fallback for errors thrown while rendering a route. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <section className="page route-error">
      <h1 className="page-title">Unexpected Application Error!</h1>
      <p>{detail}</p>
    </section>
  );
}
