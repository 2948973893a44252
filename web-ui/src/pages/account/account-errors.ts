import { ApiError } from '../../api';
import { markSignedOut } from '../../session';

export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 401) {
    return 'Your session has ended. Sign in again to continue.';
  }
  if (error instanceof Error && error.message) {
    return error.message;
  }
  return fallback;
}

/** An expired session ends the signed-in view instead of failing call by call. */
export function handleAuthError(error: unknown): boolean {
  if (error instanceof ApiError && error.status === 401) {
    markSignedOut();
    return true;
  }
  return false;
}

export function focusElement(element: HTMLElement | null | undefined): void {
  if (element) {
    if (!element.hasAttribute('tabindex') && !(element instanceof HTMLInputElement)) {
      element.setAttribute('tabindex', '-1');
    }
    element.focus();
  }
}

