import React from 'react';
import type { ReactNode } from 'react';
import Admonition from '@theme/Admonition';
import Link from '@docusaurus/Link';
import { useOperations } from './troveData';

interface Props {
  ops?: string[];
  tags?: string[];
  children?: ReactNode;
}

/**
 * Whether a feature can be used today, derived at build time from the gateway's routes: nothing to
 * flip by hand when a feature lands.
 */
export default function FeatureStatus({ ops, tags, children }: Props): ReactNode {
  const list = useOperations(ops, tags);
  const served = list.filter((o) => o.available).length;
  const roadmap = <Link to="/docs/dev-guide/roadmap">roadmap</Link>;
  if (served === list.length) {
    return (
      <Admonition type="tip" title="Available">
        <p>
          Every API call of this feature is served by the gateway today. {children}
        </p>
      </Admonition>
    );
  }
  if (served > 0) {
    return (
      <Admonition type="info" title="Partly available">
        <p>
          {served} of the {list.length} API calls of this feature are served today; the others are planned (see the {roadmap}). {children}
        </p>
      </Admonition>
    );
  }
  return (
    <Admonition type="caution" title="Planned">
      <p>
        This feature is planned: its API contract below is final, the implementation is being built (see the {roadmap}). Until it
        lands, these calls answer <code>404</code>. {children}
      </p>
    </Admonition>
  );
}
