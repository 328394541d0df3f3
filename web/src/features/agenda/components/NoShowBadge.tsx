import { hasRecentNoShows, noShowsHint, noShowsText, type NoShowCounts } from '../model/noShows';
import './ClientSearch.css';

/**
 * '2 faltas' next to a client's name (issue 44): the client search's rows and the client the
 * booking wizard chose; nothing when the client came to every appointment of the last 90 days.
 */
export function NoShowBadge({ client }: { client: NoShowCounts }) {
  if (!hasRecentNoShows(client)) return null;
  return (
    <span className="badge badge-warning no-show-badge" title={noShowsHint(client)}>
      {noShowsText(client.NoShowsLast90Days ?? 0)}
    </span>
  );
}
