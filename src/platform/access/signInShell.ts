/**
 * Where an export writes the reader sign-in page's frame in the site's theme (its logo, name,
 * favicon, colours, fonts, light and dark): the appliance fills in the form where
 * SIGN_IN_FORM_MARK stands. Under `_enclave/`, so no reader ever gets the file itself.
 */
export const SIGN_IN_SHELL_PATH = '_enclave/sign-in.html';

/** The comment in the frame the sign-in form takes the place of. */
export const SIGN_IN_FORM_MARK = '<!--enclave:sign-in-form-->';
