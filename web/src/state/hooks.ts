import { useDispatch, useSelector } from 'react-redux';
import type { AppDispatch, RootState } from '@/app/store';

// The store's hooks, typed. They live here (not in app/store) so that components/, api/ and
// features/ can use them without importing app/; only the store's types come from there.
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
