import { Navigate, useLocation } from 'react-router';

/**
 * /prompts: the address older links use for the prompts listing (SPEC §2
 * mentions links to it). It is the marketplace: go there, keeping the query
 * (e.g. ?filter=purchased) and the hash.
 */
export default function PromptsRedirect() {
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: '/marketplace', search, hash }} replace />;
}
