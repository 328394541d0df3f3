import { PlaceholderPage } from '@/components/PlaceholderPage';

// Placeholder until the screen is built.
export default function ProfilePage() {
  return <PlaceholderPage title="Meu Perfil" />;
}
