import type { ComponentRenderer } from '../types.js';
import { calloutRenderer } from './callouts.js';
import { Card } from './Card.js';
import { CardGroup } from './CardGroup.js';
import { Tab, Tabs } from './Tabs.js';
import { CodeGroup } from './CodeGroup.js';
import { Accordion, AccordionGroup } from './Accordion.js';
import { Step, Steps } from './Steps.js';
import { Frame } from './Frame.js';
import { ParamField, ResponseField } from './apiFields.js';
import { Expandable } from './Expandable.js';
import { exampleRenderer } from './examples.js';
import { Icon } from './Icon.js';
import { Tooltip } from './Tooltip.js';
import { Update } from './Update.js';
import { Badge } from './Badge.js';
import { Tree, TreeFile, TreeFolder } from './Tree.js';
import { Mermaid } from './Mermaid.js';
import { Latex } from './Latex.js';
import { Panel } from './Panel.js';
import { Banner } from './Banner.js';
import { Color, ColorItem, ColorRow } from './Color.js';
import { Prompt } from './Prompt.js';
import { Tile } from './Tile.js';
import { View } from './View.js';
import { Visibility } from './Visibility.js';
import { Column } from './Column.js';
import { GitHubRepo } from './GitHubRepo.js';
import { FileTree } from './FileTree.js';

/** Every built-in Mintlify component by its JSX name (dotted names such as `Tree.Folder` included). */
export const builtInComponents: Record<string, ComponentRenderer> = {
  Note: calloutRenderer('note'),
  Tip: calloutRenderer('tip'),
  Info: calloutRenderer('info'),
  Warning: calloutRenderer('warning'),
  // Not in Mintlify's documented list, but docs in the wild use it as a Warning.
  Caution: calloutRenderer('warning'),
  Check: calloutRenderer('check'),
  Danger: calloutRenderer('danger'),
  Callout: calloutRenderer('callout'),
  Card,
  CardGroup,
  Columns: CardGroup,
  Tabs,
  Tab,
  CodeGroup,
  Accordion,
  AccordionGroup,
  Steps,
  Step,
  Frame,
  ParamField,
  ResponseField,
  Expandable,
  RequestExample: exampleRenderer('request'),
  ResponseExample: exampleRenderer('response'),
  Icon,
  Tooltip,
  Update,
  Badge,
  Tree,
  'Tree.Folder': TreeFolder,
  'Tree.File': TreeFile,
  Mermaid,
  Latex,
  Panel,
  Banner,
  Color,
  'Color.Item': ColorItem,
  'Color.Row': ColorRow,
  Prompt,
  Tile,
  View,
  Visibility,
  Column,
  'GitHub.Repo': GitHubRepo,
  FileTree,
};
