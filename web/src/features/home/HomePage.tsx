import { useGetCompaniesQuery } from '@/api/companiesApi';
import { useNarrowScreen } from '@/components/useNarrowScreen';
import { DesktopHome } from './DesktopHome';
import { MobileHome } from './MobileHome';
import { useHomeFilters, useHomeScope } from './scope';
import './home.css';

/** '/dashboard' ('Início', issue 17): the shop's figures; at 700 px or less today's first. */
export default function HomePage() {
  const narrow = useNarrowScreen();
  // Re-read the unit list (the unit filter offers the user's units as they stand).
  useGetCompaniesQuery();
  const scope = useHomeScope();
  // Held here, so that turning the phone keeps the unit and the period.
  const filters = useHomeFilters(scope);
  return narrow ? <MobileHome scope={scope} filters={filters} /> : <DesktopHome scope={scope} filters={filters} />;
}
