import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';

/** Auto-close of the toast component itself; the dashboard shell uses 3000 ms. */
export const TOAST_DEFAULT_AUTO_CLOSE = 5000;
export const TOAST_SHELL_AUTO_CLOSE = 3000;

interface ToastsProps {
  autoClose?: number;
}

export function Toasts({ autoClose = TOAST_DEFAULT_AUTO_CLOSE }: ToastsProps) {
  return (
    <ToastContainer
      position="top-right"
      autoClose={autoClose}
      draggable
      draggablePercent={80}
      closeOnClick
      pauseOnHover
      newestOnTop
    />
  );
}
