import { toast } from 'react-toastify';

// Thin wrappers so toasts are raised the same way everywhere.
export const notifyError = (message: string) => toast.error(message);
export const notifySuccess = (message: string) => toast.success(message);
