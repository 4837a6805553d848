// Saving a file the app fetched (an agent's export) to the user's
// downloads: a link to the data, clicked once, then let go. One object so
// tests can replace `save` (jsdom has no object URLs and no downloads).
export const fileSaver = {
  save(blob: Blob, fileName: string): void {
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName;
    a.rel = 'noopener';
    document.body.appendChild(a);
    a.click();
    a.remove();
    // The click has started the download; the data is no longer needed after it.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  },
};
