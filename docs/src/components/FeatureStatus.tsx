import React from 'react';
import type { ReactNode } from 'react';
import Admonition from '@theme/Admonition';
import { useOperations } from './troveData';

interface Props {
  ops?: string[];
  tags?: string[];
  children?: ReactNode;
}

/**
 * That a feature can be used today: every API call of the contract is served by a gateway route
 * (the docs build fails otherwise, see docs/plugins/trove-sources.ts). The calls are named so that
 * an unknown operationId or tag fails the build.
 */
export default function FeatureStatus({ ops, tags, children }: Props): ReactNode {
  const list = useOperations(ops, tags);
  return (
    <Admonition type="tip" title="Available">
      <p>
        {list.length === 1 ? 'The API call of this feature is' : `All ${list.length} API calls of this feature are`}{' '}
        served by the gateway today. {children}
      </p>
    </Admonition>
  );
}
