/** The text shown while a session is verified or data loads. */
export function Loading() {
  return (
    <p className="loading" role="status">
      Loading...
    </p>
  );
}
