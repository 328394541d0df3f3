import { useGetCompaniesQuery } from '@/api/companiesApi';
import { useNarrowScreen } from '@/components/useNarrowScreen';
import { DesktopHome } from './DesktopHome';
import { MobileHome } from './MobileHome';
import './home.css';

/** '/dashboard' ('Início', issue 17): the shop's figures, or today's at 700 px or less. */
export default function HomePage() {
  const narrow = useNarrowScreen();
  // Re-read the unit list (the unit filter offers the user's units as they stand).
  useGetCompaniesQuery();
  return narrow ? <MobileHome /> : <DesktopHome />;
}
